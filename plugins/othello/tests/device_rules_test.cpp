// device_rules_test.cpp - othello's device rules (cuda/device_rules.hpp), which the CUDA playouts table plays through
// the SDK's template, checked on the CPU against the per-state table and replay under each convention: the moves in
// the table's order (the pass alone when it is the only move), its moves made and its score; and a playout that logs
// replay's moves and ends with the score random_game returns.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cuda/device_rules.hpp"
#include "othello_test_support.hpp"
#include "rules/random_game.hpp"

namespace othello {
namespace {

struct NamedConvention {
  const char* name;
  Convention convention;
};
constexpr NamedConvention kConventions[] = {{"standard", Convention::standard},
                                            {"finished_not_leaf", Convention::finished_not_leaf},
                                            {"free_pass", Convention::free_pass}};

gsdk::core::StateBlob blob_of(const Position& p) {
  gsdk::core::StateBlob blob(sizeof p);
  std::memcpy(blob.data(), &p, sizeof p);
  return blob;
}

// Positions along random games to their ends: forced passes and finished games among them.
std::vector<Position> sample_positions() {
  std::vector<Position> positions;
  for (uint64_t playout = 0; playout < 16; ++playout) {
    Position p = start_position();
    positions.push_back(p);
    stepped_game_in_place(p, 3, playout, PlayoutPolicy::random, [&](uint32_t) { positions.push_back(p); });
  }
  return positions;
}

TEST(OthelloDeviceRules, ListMakeAndScoreThePerStateTablesMoves) {
  const std::vector<Position> positions = sample_positions();
  for (const NamedConvention& c : kConventions) {
    const auto game = test::make_game(c.name);
    const cuda::DeviceRules rules{{}, c.convention, PlayoutPolicy::random};
    std::vector<uint32_t> expected(game->max_moves());
    uint32_t passes = 0;
    for (const Position& p : positions) {
      const gsdk::core::StateBlob blob = blob_of(p);
      expected.resize(game->max_moves());
      expected.resize(game->legal_moves(blob, expected.data(), nullptr));
      std::vector<uint32_t> listed;
      for (auto rest = rules.legal_moves(p); !rest.empty(); rest = rest.without_first()) listed.push_back(rest.first());
      ASSERT_EQ(listed, expected) << c.name << " " << game->state_to_string(blob);
      passes += listed.size() == 1 && listed[0] == kPass;
      EXPECT_EQ(rules.score(p), game->score(blob));
      for (uint32_t move : listed) {
        Position made = p;
        rules.play(made, move);
        gsdk::core::StateBlob child = blob;
        game->apply_move(child, move);
        EXPECT_EQ(std::memcmp(&made, child.data(), sizeof made), 0) << c.name << " move " << move;
      }
    }
    if (c.convention != Convention::free_pass) {
      EXPECT_GT(passes, 0u) << "the sample has no forced pass";
    }
  }
}

TEST(OthelloDeviceRules, PlayoutsLogReplaysMovesAndEndWithRandomGamesScore) {
  for (const char* policy : {"random", "mobility"}) {
    const auto game = test::make_game("standard", 0, policy);
    const PlayoutPolicy playout_policy = policy[0] == 'r' ? PlayoutPolicy::random : PlayoutPolicy::mobility;
    const cuda::DeviceRules rules{{}, Convention::standard, playout_policy};
    const auto& replay = *game->tables().replay;
    for (uint64_t playout = 0; playout < 40; ++playout) {
      Position end = start_position();
      std::vector<uint32_t> logged;
      rules.playout(end, 9, playout, [&](uint32_t move) { logged.push_back(move); });
      std::vector<uint32_t> replayed(200);
      char error[256] = {};
      replayed.resize(
          replay.playout_moves(game->handle(), 9, playout, nullptr, replayed.data(), 200, error, sizeof error));
      EXPECT_EQ(logged, replayed) << policy << " playout " << playout << ": " << error;
      EXPECT_TRUE(game_over(end));
      EXPECT_EQ(rules.score(end), random_game(start_position(), 9, playout, playout_policy));
    }
  }
}

} // namespace
} // namespace othello
