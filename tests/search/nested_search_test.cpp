// nested_search_test.cpp - NMCS and NRPA refuse what they cannot search: a two-player game (test_nim), a
// game with chance moves (graveler), a game without move codes (minefield, for NRPA), a level of 0. Their
// results on a real one-player game are tested with snake (plugins/snake/tests/nested_search_test.cpp).
#include <gtest/gtest.h>

#include "gsdk/core/nested/nested_search.hpp"
#include "search_fixture.hpp"

namespace gsdk::test {
namespace {

using NestedSearch = SearchTest;

std::string refusal(const std::function<void()>& run) {
  try {
    run();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_F(NestedSearch, TwoPlayerGamesAreRefusedWithAClearMessage) {
  const auto game = nim();
  const auto evaluator = core::make_cpu_batch_evaluator(*game, 1, 1);
  EXPECT_EQ(refusal([&] { core::run_nmcs(*game, {}, *evaluator); }),
            "NMCS searches one-player games; 'test_nim' has 2 players");
  EXPECT_EQ(refusal([&] { core::run_nrpa(*game, {}); }), "NRPA searches one-player games; 'test_nim' has 2 players");
}

TEST_F(NestedSearch, GamesWithChanceMovesAreRefused) {
  const auto game = make("graveler");
  const auto evaluator = core::make_cpu_batch_evaluator(*game, 1, 1);
  EXPECT_EQ(refusal([&] { core::run_nmcs(*game, {}, *evaluator); }),
            "NMCS searches deterministic games; 'graveler' has chance moves");
}

TEST_F(NestedSearch, NrpaRefusesAGameWithoutMoveCodes) {
  host::PluginCatalog catalog;
  catalog.load_file(test_plugin_dir("valid") / "test_tree.so");
  ASSERT_NE(catalog.find("test_tree"), nullptr);
  const auto& tables = catalog.find("test_tree")->tables;
  const core::GameInstance game(tables, host::resolve_params(*tables.game, {}).values);
  EXPECT_EQ(refusal([&] { core::run_nrpa(game, {}); }),
            "NRPA needs move codes for its policy, and game 'test_tree' has no 'gsdk.move_codes.v1' table");
  const auto evaluator = core::make_cpu_batch_evaluator(game, 1, 1);
  core::NmcsSettings settings;
  settings.level = 0;
  EXPECT_EQ(refusal([&] { core::run_nmcs(game, settings, *evaluator); }), "NMCS level must be at least 1");
}

// A search keeps a frame per legal move at every level below its root at once: minefield's 4 moves allow
// 1 + 4 + ... + 4^9 = 349,525 frames (level 10), level 11 would need 1,398,101, more than 2^20 (level 14 of
// a game like it grew past 3 GB within seconds and overran its time budget before).
TEST_F(NestedSearch, NmcsRefusesALevelWhoseFramesWouldNotFit) {
  host::PluginCatalog catalog;
  catalog.load_file(plugin_dir() / "minefield.so");
  ASSERT_NE(catalog.find("minefield"), nullptr);
  const auto& tables = catalog.find("minefield")->tables;
  const core::GameInstance game(tables, host::resolve_params(*tables.game, {}).values);
  const auto evaluator = core::make_cpu_batch_evaluator(game, 1, 1);
  for (const uint32_t level : {11u, 16u}) {
    core::NmcsSettings settings;
    settings.level = level;
    EXPECT_THROW(core::run_nmcs(game, settings, *evaluator), core::NmcsLevelError) << level;
    EXPECT_EQ(refusal([&] { core::run_nmcs(game, settings, *evaluator); }),
              "NMCS level " + std::to_string(level) +
                  " of 'minefield' would keep more than 1048576 search frames at once in each search (one per legal "
                  "move at every level below the root, up to 4 moves a step, so that their playouts form one batch): "
                  "it would outgrow memory and overrun a time budget within its first step; this game allows level 10 "
                  "at most");
  }
}

} // namespace
} // namespace gsdk::test
