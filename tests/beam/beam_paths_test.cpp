// beam_paths_test.cpp - the move tree of a beam (core/src/beam/beam_paths.hpp): every state's moves come back as
// the levels chose them, from the start's moves on, across compactions, and compactions keep the tree near the
// beam's size.
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "beam/beam_paths.hpp"

namespace {

using gsdk::core::BeamChild;
using gsdk::core::BeamPaths;

TEST(BeamPaths, MovesComeBackFromTheStartOnAcrossCompactions) {
  const std::vector<uint32_t> start{7, 8};
  BeamPaths paths;
  paths.reset(start);
  std::vector<std::vector<uint32_t>> reference{start};
  std::mt19937 random(5);
  for (uint32_t level = 0; level < 1000; ++level) {
    const uint32_t width = 1 + random() % 600;
    std::vector<BeamChild> kept(width);
    std::vector<std::vector<uint32_t>> next(width);
    for (uint32_t j = 0; j < width; ++j) {
      // Few parents take most children, as in a real beam, so branches die.
      const uint32_t parent = static_cast<uint32_t>(random() % std::min<size_t>(reference.size(), 1 + level % 5));
      kept[j] = BeamChild{parent, static_cast<uint32_t>(random() % 13)};
      next[j] = reference[parent];
      next[j].push_back(kept[j].move);
    }
    paths.advance(kept);
    reference = std::move(next);
    for (uint32_t j = 0; j < width; j += 97) {
      std::vector<uint32_t> expected = reference[j];
      expected.push_back(42);
      ASSERT_EQ(paths.moves_to(j, 42), expected) << "level " << level << ", state " << j;
    }
  }
  EXPECT_LT(paths.nodes(), size_t{1} << 18) << "compactions keep the tree small";
}

TEST(BeamPaths, AFreshBeamIsItsStart) {
  BeamPaths paths;
  paths.reset(std::vector<uint32_t>{3});
  EXPECT_EQ(paths.moves_to(0, 5), (std::vector<uint32_t>{3, 5}));
  EXPECT_EQ(paths.width(), 1u);
}

} // namespace
