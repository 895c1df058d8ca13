// perft_test.cpp - perft from the start position against the published tables in each of the three
// conventions, on the CPU table; and the per-state table (what the host's generic engine walks)
// against the batch counts, so every engine follows one definition.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "cpu/perft_cpu.hpp"
#include "cpu/playouts_cpu.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "othello_game.hpp"
#include "othello_test_support.hpp"
#include "perft_reference.hpp"

namespace othello {
namespace {

using test::make_game;
using test::Summary;

TEST(OthelloPerft, StandardConventionMatchesThePublishedTableToDepth11) {
  const auto owner = make_game("standard");
  const gsdk::core::GameInstance& game = *owner;
  const auto& table = *game.tables().cpu_perft;
  const auto start = game.initial_state();
  for (uint32_t depth = 1; depth <= 11; ++depth) {
    uint64_t leaves = 0;
    char error[256] = {};
    ASSERT_EQ(table.count(game.handle(), start.data(), depth, &leaves, error, sizeof error), GSDK_OK) << error;
    EXPECT_EQ(leaves, test::kStandardPerft[depth - 1]) << "depth " << depth;
  }
}

TEST(OthelloPerft, TheOtherConventionsMatchTheirPublishedDepth10) {
  for (const auto& reference : test::kOtherConventions) {
    const auto owner = make_game(reference.convention);
    const gsdk::core::GameInstance& game = *owner;
    uint64_t leaves = 0;
    char error[256] = {};
    ASSERT_EQ(game.tables().cpu_perft->count(game.handle(), game.initial_state().data(), 10, &leaves, error,
                                             sizeof error),
              GSDK_OK)
        << error;
    EXPECT_EQ(leaves, reference.depth10) << reference.convention;
  }
}

// perft through legal_moves/apply_move alone, the definition the ABI gives.
uint64_t per_state_perft(const gsdk::core::GameInstance& game, const gsdk::core::StateBlob& s, uint32_t depth) {
  if (depth == 0) return 1;
  std::vector<uint32_t> moves(game.max_moves());
  const uint32_t n = game.checked_legal_moves(s, moves);
  uint64_t leaves = 0;
  for (uint32_t i = 0; i < n; ++i) {
    auto child = s;
    game.apply_move(child, moves[i]);
    leaves += per_state_perft(game, child, depth - 1);
  }
  return leaves;
}

// Positions after `plies` random moves through the per-state table (the start when that ends the game).
gsdk::core::StateBlob random_position(const gsdk::core::GameInstance& game, std::mt19937_64& random, int plies) {
  auto s = game.initial_state();
  std::vector<uint32_t> moves(game.max_moves());
  for (int ply = 0; ply < plies && game.current_player(s) != GSDK_PLAYER_TERMINAL; ++ply) {
    const uint32_t n = game.checked_legal_moves(s, moves);
    game.apply_move(s, moves[random() % n]);
  }
  return s;
}

TEST(OthelloPerft, ThePerStateTableCountsWhatTheBatchTableCounts) {
  // Late positions, so that passes and finished games occur within the counted plies.
  for (const char* convention : {"standard", "finished_not_leaf", "free_pass"}) {
    const auto owner = make_game(convention);
    const gsdk::core::GameInstance& game = *owner;
    std::mt19937_64 random(11);
    for (int trial = 0; trial < 40; ++trial) {
      const auto s = random_position(game, random, 44 + trial % 12);
      uint64_t batch = 0;
      char error[256] = {};
      ASSERT_EQ(game.tables().cpu_perft->count(game.handle(), s.data(), 7, &batch, error, sizeof error), GSDK_OK);
      EXPECT_EQ(per_state_perft(game, s, 7), batch) << convention << " " << game.state_to_string(s);
    }
  }
}

TEST(OthelloPerft, TheAvx512KernelCountsWhatThePortableOneCounts) {
  if (cpu::best_simd_level() < GSDK_SIMD_AVX512) GTEST_SKIP() << "this processor lacks AVX-512 F or BMI2";
  for (const auto convention : {Convention::standard, Convention::finished_not_leaf, Convention::free_pass}) {
    const auto owner = make_game("standard");
    const gsdk::core::GameInstance& game = *owner;
    std::mt19937_64 random(23);
    for (int trial = 0; trial < 60; ++trial) {
      const auto s = random_position(game, random, trial % 60);
      Position p;
      std::memcpy(&p, s.data(), sizeof p);
      for (uint32_t depth = 1; depth <= 5; ++depth)
        ASSERT_EQ(cpu::perft_avx512(p, depth, convention), cpu::perft_portable(p, depth, convention))
            << "convention " << static_cast<int>(convention) << " depth " << depth << " " << game.state_to_string(s);
    }
  }
}

} // namespace
} // namespace othello
