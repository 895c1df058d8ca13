// batched_steps_reference.hpp - a game's gsdk.batched_steps.v1 checked against its definition (gsdk_plugin.h, ABI
// 1.11): stepping the per-state table by move codes, paying the final rewards and resetting. Every game's tests run
// their batched step through it; the rule is written out here again, apart from the SDK's, so that a mistake in
// the SDK's rule cannot pass its own test.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::test {

// The plugin's table of that name and type; throws when it has none.
template <typename Table> const Table& plugin_table(const core::GameInstance& game, const char* name) {
  const auto* table = static_cast<const Table*>(game.tables().info.get_proc(name));
  if (!table) throw std::runtime_error(game.tables().name() + " has no table " + name);
  return *table;
}

// The arrays of one batched step of `count` games.
struct StepArrays {
  StepArrays(uint32_t count, uint32_t state_size, uint32_t player_count, uint32_t code_count)
      : states(size_t{count} * state_size), actions(count), rewards(size_t{count} * player_count), terminated(count),
        players(count), legal(size_t{count} * code_count) {}
  std::vector<unsigned char> states;
  std::vector<uint32_t> actions;
  std::vector<float> rewards;
  std::vector<uint8_t> terminated;
  std::vector<int32_t> players;
  std::vector<uint8_t> legal;
};

// The game's environment stepped through its per-state table and move codes.
class ReferenceSteps {
public:
  explicit ReferenceSteps(const core::GameInstance& game)
      : game_(game), codes_(plugin_table<gsdk_move_codes>(game, GSDK_TABLE_MOVE_CODES)),
        code_count_(codes_.code_count(game.handle())), player_count_(game.game().player_count),
        moves_(game.max_moves()) {}

  uint32_t code_count() const { return code_count_; }
  uint32_t player_count() const { return player_count_; }

  // legal[c] = 1 exactly for the codes c of the legal moves of the live state s.
  void write_legal(const core::StateBlob& s, uint8_t* legal) {
    std::fill(legal, legal + code_count_, uint8_t{0});
    const uint32_t n = game_.checked_legal_moves(s, moves_);
    for (uint32_t k = 0; k < n; ++k) legal[codes_.move_code(game_.handle(), s.data(), moves_[k])] = 1;
  }

  // The step of the definition: the move with code `code`, then on a game's end its rewards and the initial state.
  void step(core::StateBlob& s, uint32_t code, float* rewards, uint8_t& terminated, int32_t& player, uint8_t* legal) {
    const uint32_t n = game_.checked_legal_moves(s, moves_);
    uint32_t k = 0;
    while (k < n && codes_.move_code(game_.handle(), s.data(), moves_[k]) != code) ++k;
    ASSERT_LT(k, n) << "code " << code << " is no legal move's code of " << game_.state_to_string(s);
    game_.apply_move(s, moves_[k]);
    terminated = game_.current_player(s) == GSDK_PLAYER_TERMINAL ? 1 : 0;
    for (uint32_t p = 0; p < player_count_; ++p) rewards[p] = terminated ? reward(game_.score(s), p) : 0.0f;
    if (terminated) s = game_.initial_state();
    player = game_.current_player(s);
    write_legal(s, legal);
  }

private:
  float reward(int64_t score, uint32_t p) const {
    if (player_count_ == 1) return static_cast<float>(score);
    const float black = score > 0 ? 1.0f : (score < 0 ? -1.0f : 0.0f);
    return p == 0 ? black : -black;
  }

  const core::GameInstance& game_;
  const gsdk_move_codes& codes_;
  uint32_t code_count_;
  uint32_t player_count_;
  std::vector<uint32_t> moves_;
};

// A uniformly random code among those set in legal[0..code_count).
inline uint32_t random_legal_code(const uint8_t* legal, uint32_t code_count, std::mt19937_64& random) {
  std::vector<uint32_t> codes;
  for (uint32_t c = 0; c < code_count; ++c)
    if (legal[c]) codes.push_back(c);
  if (codes.empty()) throw std::runtime_error("a live state without a legal code");
  return codes[random() % codes.size()];
}

// `count` games from the initial state stepped `steps` times with random legal codes, by the plugin's CPU batched
// step and by the reference, compared after every step (states, rewards, terminated, players, legal masks).
// Returns how many games ended.
inline uint64_t expect_batched_steps_match_reference(const core::GameInstance& game, uint32_t count, uint32_t steps,
                                                     uint64_t seed) {
  const auto& table = plugin_table<gsdk_batched_steps>(game, GSDK_TABLE_BATCHED_STEPS);
  ReferenceSteps reference(game);
  const uint32_t size = game.state_size(), codes = reference.code_count(), players = reference.player_count();
  StepArrays batch(count, size, players, codes), expected(count, size, players, codes);
  std::vector<core::StateBlob> states(count, game.initial_state());
  for (uint32_t k = 0; k < count; ++k) {
    std::memcpy(&batch.states[size_t{k} * size], states[k].data(), size);
    reference.write_legal(states[k], &expected.legal[size_t{k} * codes]);
  }
  std::mt19937_64 random(seed);
  uint64_t ended = 0;
  char error[512] = {};
  for (uint32_t t = 0; t < steps; ++t) {
    for (uint32_t k = 0; k < count; ++k) {
      batch.actions[k] = random_legal_code(&expected.legal[size_t{k} * codes], codes, random);
      reference.step(states[k], batch.actions[k], &expected.rewards[size_t{k} * players], expected.terminated[k],
                     expected.players[k], &expected.legal[size_t{k} * codes]);
      std::memcpy(&expected.states[size_t{k} * size], states[k].data(), size);
      ended += expected.terminated[k];
    }
    EXPECT_EQ(table.step(game.handle(), batch.states.data(), batch.actions.data(), count, batch.rewards.data(),
                         batch.terminated.data(), batch.players.data(), batch.legal.data(), error, sizeof error),
              GSDK_OK)
        << error;
    EXPECT_EQ(batch.states, expected.states) << "step " << t;
    EXPECT_EQ(batch.rewards, expected.rewards) << "step " << t;
    EXPECT_EQ(batch.terminated, expected.terminated) << "step " << t;
    EXPECT_EQ(batch.players, expected.players) << "step " << t;
    EXPECT_EQ(batch.legal, expected.legal) << "step " << t;
    if (::testing::Test::HasFailure()) return ended;
  }
  return ended;
}

} // namespace gsdk::test
