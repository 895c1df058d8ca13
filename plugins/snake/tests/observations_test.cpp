// observations_test.cpp - snake's observation planes: after a known walk, in a cube smaller than one 64-bit word and
// in one of several words, plane 0 holds exactly the vertices of the walk before its head and their neighbours,
// plane 1 the head alone.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "batched_steps_reference.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

TEST(SnakeObservations, PlanesAreTheBlockedVerticesAndTheHead) {
  for (const uint32_t dimension : {4u, 7u}) {
    const auto game = test::make_game({.dimension = dimension});
    const auto& table = gsdk::test::plugin_table<gsdk_observations>(*game, GSDK_TABLE_OBSERVATIONS);
    const uint32_t vertices = 1u << dimension;
    uint32_t extents[2] = {};
    ASSERT_EQ(table.shape(game->handle(), extents, 2), 2u);
    EXPECT_EQ(extents[0], 2u);
    EXPECT_EQ(extents[1], vertices);
    EXPECT_EQ(table.element_type(game->handle()), GSDK_ELEMENT_UINT8);

    auto s = game->initial_state();
    for (const uint32_t k : {0u, 1u, 2u, 0u}) game->apply_move(s, k); // 0 -> 1 -> 3 -> 7 -> 6
    std::set<uint32_t> blocked;
    for (const uint32_t left : {0u, 1u, 3u, 7u}) {
      blocked.insert(left);
      for (uint32_t j = 0; j < dimension; ++j) blocked.insert(left ^ (1u << j));
    }
    std::vector<uint8_t> observation(2 * vertices, 9);
    table.fill(game->handle(), s.data(), 1, observation.data());
    for (uint32_t v = 0; v < vertices; ++v) {
      EXPECT_EQ(observation[v], blocked.count(v) ? 1 : 0) << "d = " << dimension << ", blocked plane, vertex " << v;
      EXPECT_EQ(observation[vertices + v], v == 6 ? 1 : 0) << "d = " << dimension << ", head plane, vertex " << v;
    }
  }
}

} // namespace
} // namespace snake
