// device_rules_test.cpp - connect_four's device rules (device_rules.hpp), which every CUDA table is built from,
// checked on the CPU against the per-state table: their moves are legal_moves'
// in its order; the SDK's perft leaf counts over them equal the CPU perft; and their playout is the batch
// table's (the same final position, the moves replay gives). So a CUDA build plays the CPU's games.
#include <vector>

#include <gtest/gtest.h>

#include "device_rules.hpp"
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

} // namespace
} // namespace connect_four
