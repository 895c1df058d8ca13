// nested_search_test.cpp - NMCS and NRPA refuse what they cannot search: a two-player game (test_nim), a game
// with chance moves (graveler), a game without move codes (NRPA), a level of 0. Their results on a real
// one-player game are tested with snake (plugins/snake/tests/nested_search_test.cpp).
#include <gtest/gtest.h>

#include "gsdk/core/nested_search.hpp"
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

} // namespace
} // namespace gsdk::test
