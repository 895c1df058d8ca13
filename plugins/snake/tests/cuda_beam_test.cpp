// cuda_beam_test.cpp - the core's GPU beam on snake gives the CPU beam's levels, child for child, in the cubes whose
// bitsets the CUDA evaluation lays out differently (several states a warp, a word a lane, two and four words a
// lane) and through the large-state kernels (apply and canonical states a warp a state, keys hashed by tiles).
// Skipped without a GPU.
#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/beam/beam_search.hpp"
#include "snake_test_support.hpp"

namespace snake::test {
namespace {

TEST(SnakeCudaBeam, TheGpuGivesTheCpusLevels) {
  GSDK_REQUIRE_GPU();
  struct Case {
    uint32_t dimension, width, cap, levels;
  };
  for (const Case c :
       {Case{5, 40, 0, 20}, Case{8, 300, 3, 40}, Case{11, 300, 0, 30}, Case{12, 200, 2, 25}, Case{13, 200, 0, 25}}) {
    Settings s;
    s.dimension = c.dimension;
    s.symmetry_breaking = false;
    const auto game = make_game(s);
    const auto cpu = gsdk::core::make_cpu_beam_device(*game, 2);
    const auto gpu = gsdk::core::make_cuda_beam_device(*game, 0, c.width);
    cpu->reset(game->initial_state());
    gpu->reset(game->initial_state());
    const gsdk::core::BeamSelectionRules rules{gsdk::core::beam_tie_seed(11, 0), c.width, c.cap, true};
    uint64_t duplicates = 0; // small cubes' beams meet transposed snakes, so their dedup is exercised
    for (uint32_t level = 0; level < c.levels; ++level) {
      const gsdk::core::BeamLevelResult a = cpu->expand(rules);
      const gsdk::core::BeamLevelResult b = gpu->expand(rules);
      ASSERT_EQ(a.children, b.children) << "d=" << c.dimension << " level " << level;
      ASSERT_EQ(a.duplicates, b.duplicates) << "d=" << c.dimension << " level " << level;
      ASSERT_EQ(a.capped, b.capped);
      ASSERT_EQ(a.kept.size(), b.kept.size());
      for (size_t j = 0; j < a.kept.size(); ++j) {
        ASSERT_EQ(a.kept[j].parent, b.kept[j].parent) << "d=" << c.dimension << " level " << level << " state " << j;
        ASSERT_EQ(a.kept[j].move, b.kept[j].move);
      }
      ASSERT_EQ(a.finished.size(), b.finished.size());
      duplicates += a.duplicates;
      if (a.kept.empty()) break;
    }
    if (c.dimension <= 8) {
      EXPECT_GT(duplicates, 0u) << "d=" << c.dimension << ": transposed snakes were met";
    }
  }
}

} // namespace
} // namespace snake::test
