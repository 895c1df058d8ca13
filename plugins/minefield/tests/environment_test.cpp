// environment_test.cpp - the minefield as a vectorised environment: its observation planes on a known board, and the
// batched step against stepping the per-state table (mines, the flag and the step limit all end games), with the
// refusal of an action that is no move.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "batched_steps_reference.hpp"
#include "linked_plugin.hpp"
#include "minefield_test_util.hpp"

namespace minefield {
namespace {

using gsdk::test::plugin_table;

std::unique_ptr<gsdk::core::GameInstance> make_instance(int64_t size, int64_t mines, int64_t step_limit) {
  const gsdk_param_value values[] = {{"size", GSDK_PARAM_INT, 0, size, 0, nullptr},
                                     {"agents", GSDK_PARAM_INT, 0, 1, 0, nullptr},
                                     {"mines", GSDK_PARAM_INT, 0, mines, 0, nullptr},
                                     {"map_seed", GSDK_PARAM_INT, 0, 3, 0, nullptr},
                                     {"step_limit", GSDK_PARAM_INT, 0, step_limit, 0, nullptr}};
  return std::make_unique<gsdk::core::GameInstance>(gsdk::test::linked_plugin_tables("minefield"),
                                                    std::vector<gsdk_param_value>(std::begin(values), std::end(values)));
}

TEST(MinefieldEnvironment, ObservationsAreTheMinesTheFlagAndTheAgent) {
  const auto instance = make_instance(5, 4, 50);
  const auto& table = plugin_table<gsdk_observations>(*instance, GSDK_TABLE_OBSERVATIONS);
  uint32_t extents[3] = {};
  ASSERT_EQ(table.shape(instance->handle(), extents, 3), 3u);
  EXPECT_EQ(std::vector<uint32_t>(extents, extents + 3), (std::vector<uint32_t>{3, 5, 5}));
  EXPECT_EQ(table.element_type(instance->handle()), GSDK_ELEMENT_UINT8);
  const Board board = make_board(5, 4, 3);
  const State states[2] = {{board.starts.front(), 0}, {board.starts.back(), 7}};
  std::vector<uint8_t> observations(2 * 75, 9);
  table.fill(instance->handle(), states, 2, observations.data());
  for (uint32_t k = 0; k < 2; ++k)
    for (uint32_t cell = 0; cell < 25; ++cell) {
      const uint8_t* o = &observations[75 * k];
      EXPECT_EQ(o[cell], board.cells[cell] == kMine ? 1 : 0) << "mines, cell " << cell;
      EXPECT_EQ(o[25 + cell], board.cells[cell] == kFlag ? 1 : 0) << "flag, cell " << cell;
      EXPECT_EQ(o[50 + cell], cell == states[k].cell ? 1 : 0) << "agent of state " << k << ", cell " << cell;
    }
}

TEST(MinefieldEnvironment, BatchedStepsEqualThePerStateTableOverManyEpisodes) {
  // A small board with many mines ends walks on mines and on the flag; a step limit of 12 ends the rest.
  const auto instance = make_instance(6, 8, 12);
  const uint64_t ended = gsdk::test::expect_batched_steps_match_reference(*instance, 41, 2000, 13);
  EXPECT_GT(ended, 41u * 2000 / 12);
}

TEST(MinefieldEnvironment, AnActionThatIsNoMoveIsRefusedByName) {
  const auto instance = make_instance(5, 4, 50);
  const auto& table = plugin_table<gsdk_batched_steps>(*instance, GSDK_TABLE_BATCHED_STEPS);
  State s{make_board(5, 4, 3).starts.front(), 0};
  const uint32_t action = 4;
  float reward;
  uint8_t terminated, legal[4];
  int32_t player;
  char error[512] = {};
  EXPECT_EQ(table.step(instance->handle(), &s, &action, 1, &reward, &terminated, &player, legal, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("action 4 of game 0"), std::string::npos) << error;
}

} // namespace
} // namespace minefield
