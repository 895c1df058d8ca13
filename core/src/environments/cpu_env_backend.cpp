// cpu_env_backend.cpp - a VectorEnv's games on CPU threads: the per-state rules for any game with move codes
// (chance nodes sampled from each game's own stream), or the game's batched_steps.step when it has one (games
// without chance nodes only; with final observations, its step_keeping_final). After the step the episodes past
// the step limit are truncated and the final states kept. Each thread takes a consecutive chunk of games and fills
// their observations right after stepping them, while their states are still in its cache.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "environments/env_backend.hpp"
#include "environments/env_streams.hpp"
#include "gsdk/core/playouts/chance_outcome.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"
#include "gsdk/environments/step_rewards.hpp"
#include "runtime/batch_split.hpp"

namespace gsdk::core {

namespace {

// Games per thread below which another thread costs more than it saves: starting one costs tens of microseconds,
// the steps of a few hundred small games (test_tictactoe steps about 2 million games a second on one thread).
constexpr size_t kGamesPerThread = 256;

// The arrays one step or reset writes, fresh each time.
struct StepArrays {
  EnvStep out;
  float* rewards;
  uint8_t* terminated;
  int32_t* players;
  uint8_t* legal;
  uint8_t* truncated;
  float* actor_rewards;
  uint8_t* ended;
};

// Not initialised: a batched step writes every byte; the per-state paths clear what they write in part
// (clear_chunk), each thread its own games; truncated, ended and actor_rewards are written after either.
StepArrays fresh_arrays(const EnvLayout& layout, const std::shared_ptr<HostBlockCache>& cache) {
  StepArrays a;
  a.out.observations =
      std::make_shared<EnvArray>(layout.observation_type, layout.batch_shape(layout.observation_shape), cache);
  a.out.rewards = std::make_shared<EnvArray>(ElementType::float32, layout.batch_shape({layout.player_count}), cache);
  a.out.terminated = std::make_shared<EnvArray>(ElementType::uint8, layout.batch_shape({}), cache);
  a.out.players = std::make_shared<EnvArray>(ElementType::int32, layout.batch_shape({}), cache);
  a.out.legal = std::make_shared<EnvArray>(ElementType::uint8, layout.batch_shape({layout.action_count}), cache);
  a.out.truncated = std::make_shared<EnvArray>(ElementType::uint8, layout.batch_shape({}), cache);
  a.out.actor_rewards = std::make_shared<EnvArray>(ElementType::float32, layout.batch_shape({}), cache);
  a.out.ended = std::make_shared<EnvArray>(ElementType::uint8, layout.batch_shape({}), cache);
  a.rewards = a.out.rewards->as<float>();
  a.terminated = a.out.terminated->as<uint8_t>();
  a.players = a.out.players->as<int32_t>();
  a.legal = a.out.legal->as<uint8_t>();
  a.truncated = a.out.truncated->as<uint8_t>();
  a.actor_rewards = a.out.actor_rewards->as<float>();
  a.ended = a.out.ended->as<uint8_t>();
  return a;
}

class CpuEnvBackend final : public EnvBackend {
public:
  CpuEnvBackend(const GameInstance& game, const EnvLayout& layout, unsigned threads, bool force_generic)
      : game_(game), layout_(layout), threads_(threads),
        batched_(!force_generic && !(game.game().flags & GSDK_GAME_FLAG_CHANCE) && batched_entry(game, layout)),
        states_(static_cast<size_t>(layout.count) * layout.state_size),
        legal_(static_cast<size_t>(layout.count) * layout.action_count), players_(layout.count, 0),
        chance_draws_(layout.count, 0), episode_steps_(layout.count, 0),
        final_states_(layout.final_observations ? states_.size() : 0) {}

  EnvStep reset(std::optional<uint64_t> seed) override {
    if (seed) start_streams_over(*seed);
    return start([&](size_t k, Scratch& scratch) { restart(k, scratch); });
  }

  EnvStep reset_from_states(const unsigned char* states) override {
    return start([&](size_t k, Scratch& scratch) {
      std::memcpy(state(k), states + k * layout_.state_size, layout_.state_size);
      resolve_chance(k, scratch);
    });
  }

  EnvStep step(const uint32_t* actions, MemoryPlace) override {
    refuse_illegal(actions);
    StepArrays a = fresh_arrays(layout_, cache_);
    if (layout_.final_observations)
      a.out.final_observations =
          std::make_shared<EnvArray>(layout_.observation_type, layout_.batch_shape(layout_.observation_shape), cache_);
    split_ranges(threads_, layout_.count, kGamesPerThread, [&](unsigned, size_t begin, size_t end) {
      if (batched_) {
        batched_step(begin, end, actions, a);
      } else {
        clear_chunk(begin, end, a);
        generic_step(begin, end, actions, a);
      }
      end_episodes(begin, end, a);
      finish_chunk(begin, end, a, true);
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

  // The CPU step this game's batched table offers for the layout, if any.
  static bool batched_entry(const GameInstance& game, const EnvLayout& layout) {
    const gsdk_batched_steps* table = game.tables().batched_steps;
    if (!table || !table->step) return false;
    return !layout.final_observations || step_keeping_final(*table) != nullptr;
  }

  void start_streams_over(uint64_t seed) {
    layout_.seed = seed;
    random_calls_ = 0;
    std::fill(chance_draws_.begin(), chance_draws_.end(), 0);
  }

  // Every game from `place(k, scratch)` (a live state with chance resolved), with a fresh episode: zero rewards,
  // nothing terminated or truncated.
  template <typename Place> EnvStep start(Place place) {
    StepArrays a = fresh_arrays(layout_, cache_);
    split_ranges(threads_, layout_.count, kGamesPerThread, [&](unsigned, size_t begin, size_t end) {
      clear_chunk(begin, end, a);
      std::memset(a.truncated + begin, 0, end - begin);
      std::memset(a.ended + begin, 0, end - begin);
      Scratch scratch(game_.max_moves());
      for (size_t k = begin; k < end; ++k) {
        place(k, scratch);
        describe(k, a, scratch);
        episode_steps_[k] = 0;
      }
      finish_chunk(begin, end, a, false);
    });
    return a.out;
  }

  unsigned char* state(size_t k) { return states_.data() + k * layout_.state_size; }
  unsigned char* final_state(size_t k) { return final_states_.data() + k * layout_.state_size; }
  const uint8_t* mask_row(size_t k) const { return legal_.data() + k * layout_.action_count; }

  // Zero rewards and nothing terminated for games [begin, end), which the per-state paths then mark.
  void clear_chunk(size_t begin, size_t end, StepArrays& a) const {
    std::memset(a.rewards + begin * layout_.player_count, 0, (end - begin) * layout_.player_count * sizeof(float));
    std::memset(a.terminated + begin, 0, end - begin);
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
    a.players[k] =
        describe_state(game_, state(k), layout_.action_count, scratch.moves, a.legal + k * layout_.action_count);
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
        if (layout_.final_observations) std::memcpy(final_state(k), state(k), layout_.state_size);
        restart(k, scratch);
      }
      describe(k, a, scratch);
    }
  }

  void batched_step(size_t begin, size_t end, const uint32_t* actions, StepArrays& a) {
    const gsdk_batched_steps& table = *game_.tables().batched_steps;
    const auto count = static_cast<uint32_t>(end - begin);
    float* rewards = a.rewards + begin * layout_.player_count;
    uint8_t* legal = a.legal + begin * layout_.action_count;
    const auto step = [&](char* error, uint32_t size) {
      return layout_.final_observations ? table.step_keeping_final(game_.handle(), state(begin), actions + begin, count,
                                                                   rewards, a.terminated + begin, a.players + begin,
                                                                   legal, final_state(begin), error, size)
                                        : table.step(game_.handle(), state(begin), actions + begin, count, rewards,
                                                     a.terminated + begin, a.players + begin, legal, error, size);
    };
    call_plugin(step, [&] {
      return fmt::format("game '{}': batched_steps.step of environments [{}, {})", game_.game().name, begin, end);
    });
  }

  // After a step: the episodes of games [begin, end) that reach the step limit without ending are truncated and
  // restarted, and the final states of the rest that go on are their states (final observations' rows).
  void end_episodes(size_t begin, size_t end, StepArrays& a) {
    std::memset(a.truncated + begin, 0, end - begin);
    Scratch scratch(game_.max_moves());
    for (size_t k = begin; k < end; ++k) {
      a.ended[k] = a.terminated[k];
      if (a.terminated[k]) {
        episode_steps_[k] = 0;
        continue;
      }
      const bool truncate = layout_.max_episode_steps != 0 && ++episode_steps_[k] >= layout_.max_episode_steps;
      if (layout_.final_observations) std::memcpy(final_state(k), state(k), layout_.state_size);
      if (!truncate) continue;
      a.truncated[k] = 1;
      a.ended[k] = 1;
      episode_steps_[k] = 0;
      restart(k, scratch);
      describe(k, a, scratch);
    }
  }

  // Observations of the chunk's games (and of their final states), the rewards of the players who moved (after a
  // step), and the copies of their masks and players this backend validates the next actions with and pays them by.
  void finish_chunk(size_t begin, size_t end, StepArrays& a, bool stepped) {
    const size_t codes = layout_.action_count;
    std::memcpy(legal_.data() + begin * codes, a.legal + begin * codes, (end - begin) * codes);
    for (size_t k = begin; k < end; ++k) {
      a.actor_rewards[k] = stepped ? a.rewards[k * layout_.player_count + static_cast<size_t>(players_[k])] : 0.0f;
      players_[k] = a.players[k];
    }
    auto* observations = static_cast<unsigned char*>(a.out.observations->data()) + begin * layout_.observation_bytes;
    observe(state(begin), end - begin, observations);
    if (!a.out.final_observations) return;
    observe(final_state(begin), end - begin,
            static_cast<unsigned char*>(a.out.final_observations->data()) + begin * layout_.observation_bytes);
  }

  void observe(const unsigned char* states, size_t count, unsigned char* observations) const {
    const gsdk_observations* table = game_.tables().observations;
    if (table)
      table->fill(game_.handle(), states, static_cast<uint32_t>(count), observations);
    else
      std::memcpy(observations, states, count * layout_.state_size);
  }

  const GameInstance& game_;
  EnvLayout layout_;
  unsigned threads_;
  bool batched_;
  std::vector<unsigned char> states_;
  std::vector<uint8_t> legal_;              // the mask of the current states, the caller's copy aside
  std::vector<int32_t> players_;            // the players to move in the current states, likewise
  std::vector<uint64_t> chance_draws_;      // per game: chance draws so far
  std::vector<uint32_t> episode_steps_;     // per game: steps of its episode so far
  std::vector<unsigned char> final_states_; // with final observations: the states the last step's episodes ended in
  uint64_t random_calls_ = 0;
  std::shared_ptr<HostBlockCache> cache_ = std::make_shared<HostBlockCache>();
};

} // namespace

std::unique_ptr<EnvBackend> make_cpu_backend(const GameInstance& game, const EnvLayout& layout, unsigned threads,
                                             bool force_generic) {
  return std::make_unique<CpuEnvBackend>(game, layout, threads, force_generic);
}

} // namespace gsdk::core
