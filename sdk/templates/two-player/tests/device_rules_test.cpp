// device_rules_test.cpp - connect_four's device rules (device_rules.hpp), which every CUDA table is built from,
// checked on the CPU against the per-state table: their moves are legal_moves'
// in its order; the SDK's perft leaf counts over them equal the CPU perft; and their playout is the batch
// table's (the same final position, the moves replay gives); the environment's batched steps (the SDK's, over the
// device rules) make the per-state table's moves and pay its scores. So a CUDA build plays the CPU's games.
#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "device_rules.hpp"
#include "gsdk/environments/batched_steps.hpp"
#include "gsdk/nested/perft_rules.hpp"
#include "test_game.hpp"

namespace connect_four {
namespace {

using test::game;
using test::position;

// Positions along a few random games, the start and finished games included.
std::vector<State> sample_positions() {
  std::vector<State> positions{position(""), position("4453"), position("444444"), position("1122334")};
  for (uint64_t playout = 0; playout < 20; ++playout) {
    State s = position("");
    play_out(s, 7, playout, [&](uint32_t) { positions.push_back(s); });
  }
  return positions;
}

TEST(DeviceRules, ListTheMovesOfThePerStateTableInItsOrder) {
  const DeviceRules rules;
  std::vector<uint32_t> expected(game().max_moves());
  for (const State& s : sample_positions()) {
    expected.resize(game().max_moves());
    expected.resize(game().legal_moves(s, expected.data(), nullptr));
    std::vector<uint32_t> listed;
    for (auto rest = rules.legal_moves(s); !rest.empty(); rest = rest.without_first()) listed.push_back(rest.first());
    EXPECT_EQ(listed, expected) << game().state_to_string(s);
    EXPECT_EQ(rules.score(s), game().score(s));
  }
}

TEST(DeviceRules, GiveTheCpuPerftsLeafCounts) {
  const DeviceRules rules;
  for (const State& s : sample_positions())
    for (uint32_t plies = 1; plies <= gsdk::nested::kPerftLeafPlies; ++plies)
      EXPECT_EQ(gsdk::nested::perft_leaves(rules, s, plies), game().cpu_perft(s, plies))
          << game().state_to_string(s) << " plies " << plies;
  EXPECT_EQ(gsdk::nested::perft_leaves(rules, position(""), 2), 49u); // 7 x 7 replies
}

TEST(DeviceRules, PlayTheBatchTablesPlayouts) {
  const DeviceRules rules;
  for (const State& start : {position(""), position("4453")})
    for (uint64_t playout = 0; playout < 50; ++playout) {
      State end = start;
      std::vector<uint32_t> moves;
      rules.playout(end, 11, playout, [&](uint32_t column) { moves.push_back(column); });
      EXPECT_EQ(moves, game().replay_playout(11, playout, &start)) << playout;
      State replayed = start;
      for (uint32_t column : moves) game().apply_move(replayed, column);
      EXPECT_EQ(end.discs[0], replayed.discs[0]);
      EXPECT_EQ(end.discs[1], replayed.discs[1]);
      EXPECT_EQ(game().current_player(end), GSDK_PLAYER_TERMINAL);
    }
}

// Games stepped by random legal codes, batched, against the same games played through the per-state table: the
// states, rewards, restarts, final states, movers and legal codes agree at every step.
TEST(DeviceRules, StepBatchesAsThePerStateTablePlays) {
  constexpr uint32_t kGames = 32;
  std::vector<State> states(kGames), reference(kGames), finals(kGames);
  std::vector<float> rewards(2 * kGames);
  std::vector<uint8_t> terminated(kGames), legal(kGames * kColumns);
  std::vector<int32_t> players(kGames);
  for (uint32_t k = 0; k < kGames; ++k) {
    gsdk::environments::reset_game(DeviceRules{}, states[k], &players[k], &legal[k * kColumns]);
    game().initial_state(reference[k]);
  }
  std::mt19937 random(5);
  uint32_t ended = 0;
  for (int step = 0; step < 200; ++step) {
    std::vector<uint32_t> actions(kGames);
    for (uint32_t k = 0; k < kGames; ++k) {
      std::vector<uint32_t> codes;
      for (uint32_t c = 0; c < kColumns; ++c)
        if (legal[k * kColumns + c]) codes.push_back(c);
      ASSERT_FALSE(codes.empty());
      actions[k] = codes[random() % codes.size()];
    }
    gsdk::environments::step_batch(DeviceRules{}, states.data(), actions.data(), kGames, rewards.data(),
                                   terminated.data(), players.data(), legal.data(), finals.data());
    for (uint32_t k = 0; k < kGames; ++k) {
      game().apply_move(reference[k], actions[k]); // a move's code is its column
      const bool over = game().current_player(reference[k]) == GSDK_PLAYER_TERMINAL;
      ASSERT_EQ(terminated[k], over ? 1 : 0) << "game " << k << " step " << step;
      const int64_t score = over ? game().score(reference[k]) : 0;
      EXPECT_EQ(rewards[2 * k], static_cast<float>(score));
      EXPECT_EQ(rewards[2 * k + 1], static_cast<float>(-score));
      if (over) {
        ++ended;
        EXPECT_EQ(finals[k].discs[0], reference[k].discs[0]);
        EXPECT_EQ(finals[k].discs[1], reference[k].discs[1]);
        game().initial_state(reference[k]);
      }
      EXPECT_EQ(states[k].discs[0], reference[k].discs[0]);
      EXPECT_EQ(states[k].discs[1], reference[k].discs[1]);
      EXPECT_EQ(players[k], game().current_player(reference[k]));
      std::vector<uint32_t> moves(kColumns);
      moves.resize(game().legal_moves(reference[k], moves.data(), nullptr));
      for (uint32_t c = 0; c < kColumns; ++c)
        EXPECT_EQ(legal[k * kColumns + c], std::count(moves.begin(), moves.end(), c)) << "code " << c;
    }
  }
  EXPECT_GT(ended, kGames) << "200 steps finish several games of each of the 32";
}

// The observation of "4453" (X drops into columns 4 and 5, O onto X's first disc and into column 3; X to move):
// plane 0 the mover's discs, plane 1 the opponent's, row 0 the bottom.
TEST(DeviceRules, ObserveFromTheMoversSide) {
  std::vector<uint8_t> observation(DeviceRules::kObservationBytes);
  DeviceRules{}.write_observation(position("4453"), observation.data());
  const auto at = [&](uint32_t plane, uint32_t row, uint32_t column) {
    return observation[plane * kCells + row * kColumns + column];
  };
  EXPECT_EQ(at(0, 0, 3), 1); // X's first disc, column 4 bottom
  EXPECT_EQ(at(1, 1, 3), 1); // O's on top of it
  EXPECT_EQ(at(0, 0, 4), 1); // X in column 5
  EXPECT_EQ(at(1, 0, 2), 1); // O in column 3
  EXPECT_EQ(std::count(observation.begin(), observation.end(), 1), 4);
  DeviceRules{}.write_observation(position("445"), observation.data());
  EXPECT_EQ(observation[kCells + 0 * kColumns + 3], 1) << "O to move: X's discs are the opponent's plane";
}

} // namespace
} // namespace connect_four
