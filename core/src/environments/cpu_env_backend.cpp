// cpu_env_backend.cpp - a VectorEnv's games on CPU threads: the per-state rules for any game with move codes
// (chance nodes sampled from each game's own stream), or the game's batched_steps.step when it has one (games
// without chance nodes only). Each thread takes a consecutive chunk of games and fills their observations right
// after stepping them, while their states are still in its cache.
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "environments/env_backend.hpp"
#include "environments/env_streams.hpp"
#include "gsdk/core/playouts/chance_outcome.hpp"
#include "gsdk/environments/step_rewards.hpp"
#include "runtime/batch_split.hpp"

namespace gsdk::core {

namespace {

// Games per thread below which another thread costs more than it saves: starting one costs tens of microseconds,
// the steps of a few hundred small games (test_tictactoe steps about 2 million games a second on one thread).
constexpr size_t kGamesPerThread = 256;
constexpr uint32_t kMessageSize = 512;

// The arrays one step or reset writes, fresh each time.
struct StepArrays {
  EnvStep out;
  float* rewards;
  uint8_t* terminated;
  int32_t* players;
  uint8_t* legal;
};

// Not initialised: a batched step writes every byte; the per-state paths clear what they write in part
// (clear_chunk), each thread its own games.
StepArrays fresh_arrays(const EnvLayout& layout, const std::shared_ptr<HostBlockCache>& cache) {
  StepArrays a;
  a.out.observations =
      std::make_shared<EnvArray>(layout.observation_type, layout.batch_shape(layout.observation_shape), cache);
  a.out.rewards = std::make_shared<EnvArray>(ElementType::float32, layout.batch_shape({layout.player_count}), cache);
  a.out.terminated = std::make_shared<EnvArray>(ElementType::uint8, layout.batch_shape({}), cache);
  a.out.players = std::make_shared<EnvArray>(ElementType::int32, layout.batch_shape({}), cache);
  a.out.legal = std::make_shared<EnvArray>(ElementType::uint8, layout.batch_shape({layout.action_count}), cache);
  a.rewards = a.out.rewards->as<float>();
  a.terminated = a.out.terminated->as<uint8_t>();
  a.players = a.out.players->as<int32_t>();
  a.legal = a.out.legal->as<uint8_t>();
  return a;
}

class CpuEnvBackend final : public EnvBackend {
public:
  CpuEnvBackend(const GameInstance& game, const EnvLayout& layout, unsigned threads, bool force_generic)
      : game_(game), layout_(layout), threads_(threads),
        batched_(!force_generic && game.tables().batched_steps && game.tables().batched_steps->step &&
                 !(game.game().flags & GSDK_GAME_FLAG_CHANCE)),
        states_(static_cast<size_t>(layout.count) * layout.state_size),
        legal_(static_cast<size_t>(layout.count) * layout.action_count), chance_draws_(layout.count, 0) {}

  EnvStep reset() override {
    StepArrays a = fresh_arrays(layout_, cache_);
    split_ranges(threads_, layout_.count, kGamesPerThread, [&](unsigned, size_t begin, size_t end) {
      clear_chunk(begin, end, a);
      Scratch scratch(game_.max_moves());
      for (size_t k = begin; k < end; ++k) {
        restart(k, scratch);
        describe(k, a, scratch);
      }
      finish_chunk(begin, end, a);
    });
    return a.out;
  }

  EnvStep step(const uint32_t* actions, MemoryPlace) override {
    refuse_illegal(actions);
    StepArrays a = fresh_arrays(layout_, cache_);
    split_ranges(threads_, layout_.count, kGamesPerThread, [&](unsigned, size_t begin, size_t end) {
      if (batched_) {
        batched_step(begin, end, actions, a);
      } else {
        clear_chunk(begin, end, a);
        generic_step(begin, end, actions, a);
      }
      finish_chunk(begin, end, a);
    });
    return a.out;
  }

  std::shared_ptr<EnvArray> random_actions() override {
    auto codes = std::make_shared<EnvArray>(ElementType::uint32, std::vector<uint64_t>{layout_.count}, cache_);
    uint32_t* out = codes->as<uint32_t>();
    const uint64_t call = random_calls_++;
    split_ranges(threads_, layout_.count, kGamesPerThread, [&](unsigned, size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k)
        out[k] = env_streams::random_legal_code(layout_.seed, k, call, mask_row(k), layout_.action_count);
    });
    return codes;
  }

  std::vector<unsigned char> states_on_host() const override { return states_; }

private:
  struct Scratch {
    explicit Scratch(uint32_t max_moves) : moves(max_moves), probabilities(max_moves) {}
    std::vector<uint32_t> moves;
    std::vector<double> probabilities;
  };

  unsigned char* state(size_t k) { return states_.data() + k * layout_.state_size; }
  const uint8_t* mask_row(size_t k) const { return legal_.data() + k * layout_.action_count; }

  // Zero rewards, nothing terminated and empty masks for games [begin, end), which the per-state paths then mark.
  void clear_chunk(size_t begin, size_t end, StepArrays& a) const {
    std::memset(a.rewards + begin * layout_.player_count, 0, (end - begin) * layout_.player_count * sizeof(float));
    std::memset(a.terminated + begin, 0, end - begin);
    std::memset(a.legal + begin * layout_.action_count, 0, (end - begin) * layout_.action_count);
  }

  // Before any game changes: the lowest game whose action is out of range or not legal there.
  void refuse_illegal(const uint32_t* actions) const {
    for (size_t k = 0; k < layout_.count; ++k)
      if (actions[k] >= layout_.action_count || mask_row(k)[actions[k]] == 0)
        throw IllegalActionError(static_cast<uint32_t>(k), actions[k], layout_.action_count,
                                 legal_codes(mask_row(k), layout_.action_count));
  }

  // Plays chance outcomes from game k's stream until a player is to move or the game is over.
  void resolve_chance(size_t k, Scratch& scratch) {
    unsigned char* s = state(k);
    while (game_.current_player(s) == GSDK_PLAYER_CHANCE) {
      const uint32_t n =
          game_.game().legal_moves(game_.handle(), s, scratch.moves.data(), scratch.probabilities.data());
      if (n == 0 || n > game_.max_moves())
        throw std::runtime_error(fmt::format("game '{}': a chance node lists {} outcomes, expected 1..{}",
                                             game_.game().name, n, game_.max_moves()));
      const double u = env_streams::chance_uniform(layout_.seed, k, chance_draws_[k]++);
      game_.apply_move(s, scratch.moves[chance_outcome(u, scratch.probabilities.data(), n)]);
    }
  }

  // Game k from its initial state, chance resolved.
  void restart(size_t k, Scratch& scratch) {
    game_.game().initial_state(game_.handle(), state(k));
    resolve_chance(k, scratch);
    if (game_.current_player(state(k)) == GSDK_PLAYER_TERMINAL)
      throw std::runtime_error(
          fmt::format("game '{}': its initial state is already over, so there is nothing to step", game_.game().name));
  }

  // Player to move and legal mask of game k's live state.
  void describe(size_t k, StepArrays& a, Scratch& scratch) {
    const unsigned char* s = state(k);
    a.players[k] = game_.current_player(s);
    const uint32_t n = game_.game().legal_moves(game_.handle(), s, scratch.moves.data(), nullptr);
    uint8_t* row = a.legal + k * layout_.action_count;
    for (uint32_t m = 0; m < n; ++m) {
      const uint32_t code = move_code(s, scratch.moves[m]);
      if (code >= layout_.action_count)
        throw std::runtime_error(fmt::format("game '{}': move {} has code {}, but code_count is {}", game_.game().name,
                                             scratch.moves[m], code, layout_.action_count));
      row[code] = 1;
    }
  }

  uint32_t move_code(const unsigned char* s, uint32_t move) const {
    return game_.tables().move_codes->move_code(game_.handle(), s, move);
  }

  // The legal move of game k whose code is `action` (validated against the mask before).
  uint32_t move_of_code(size_t k, uint32_t action, Scratch& scratch) const {
    const unsigned char* s = states_.data() + k * layout_.state_size;
    const uint32_t n = game_.game().legal_moves(game_.handle(), s, scratch.moves.data(), nullptr);
    for (uint32_t m = 0; m < n; ++m)
      if (move_code(s, scratch.moves[m]) == action) return scratch.moves[m];
    throw std::runtime_error(fmt::format("game '{}': environment {} lists code {} as legal, but no legal move has it",
                                         game_.game().name, k, action));
  }

  void generic_step(size_t begin, size_t end, const uint32_t* actions, StepArrays& a) {
    Scratch scratch(game_.max_moves());
    for (size_t k = begin; k < end; ++k) {
      game_.apply_move(state(k), move_of_code(k, actions[k], scratch));
      resolve_chance(k, scratch);
      if (game_.current_player(state(k)) == GSDK_PLAYER_TERMINAL) {
        gsdk::environments::write_step_rewards(true, game_.score(state(k)), layout_.player_count,
                                                 a.rewards + k * layout_.player_count);
        a.terminated[k] = 1;
        restart(k, scratch);
      }
      describe(k, a, scratch);
    }
  }

  void batched_step(size_t begin, size_t end, const uint32_t* actions, StepArrays& a) {
    char error[kMessageSize] = {};
    const int32_t status = game_.tables().batched_steps->step(
        game_.handle(), state(begin), actions + begin, static_cast<uint32_t>(end - begin),
        a.rewards + begin * layout_.player_count, a.terminated + begin, a.players + begin,
        a.legal + begin * layout_.action_count, error, kMessageSize);
    if (status != GSDK_OK)
      throw std::runtime_error(fmt::format("game '{}': batched_steps.step of environments [{}, {}) failed: {}",
                                           game_.game().name, begin, end, error));
  }

  // Observations of the chunk's games and the copy of their mask this backend validates the next actions with.
  void finish_chunk(size_t begin, size_t end, StepArrays& a) {
    const size_t codes = layout_.action_count;
    std::memcpy(legal_.data() + begin * codes, a.legal + begin * codes, (end - begin) * codes);
    auto* observations = static_cast<unsigned char*>(a.out.observations->data()) + begin * layout_.observation_bytes;
    const gsdk_observations* table = game_.tables().observations;
    if (table)
      table->fill(game_.handle(), state(begin), static_cast<uint32_t>(end - begin), observations);
    else
      std::memcpy(observations, state(begin), (end - begin) * layout_.state_size);
  }

  const GameInstance& game_;
  EnvLayout layout_;
  unsigned threads_;
  bool batched_;
  std::vector<unsigned char> states_;
  std::vector<uint8_t> legal_;         // the mask of the current states, the caller's copy aside
  std::vector<uint64_t> chance_draws_; // per game: chance draws so far
  uint64_t random_calls_ = 0;
  std::shared_ptr<HostBlockCache> cache_ = std::make_shared<HostBlockCache>();
};

} // namespace

std::unique_ptr<EnvBackend> make_cpu_backend(const GameInstance& game, const EnvLayout& layout, unsigned threads,
                                             bool force_generic) {
  return std::make_unique<CpuEnvBackend>(game, layout, threads, force_generic);
}

} // namespace gsdk::core
