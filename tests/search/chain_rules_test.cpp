// chain_rules_test.cpp - test_chain's rules through its tables: the legal numbers of a chain, the text and its
// refusals, parameters out of range, playout starts that are not chains, move codes, and batch playouts whose
// replays end where the summary says; the game the GPU nested-search tests (gpu_nested_search_test.cpp) rely on.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "chain_fixture.hpp"
#include "gsdk/playout_request.hpp"
#include "gsdk/playout_summary.hpp"

namespace gsdk::test {
namespace {

using ChainRules = ChainTest;

std::vector<uint32_t> legal(const core::GameInstance& game, const core::StateBlob& s) {
  std::vector<uint32_t> moves(game.max_moves());
  moves.resize(game.checked_legal_moves(s, moves));
  return moves;
}

std::string refusal(const std::function<void()>& run) {
  try {
    run();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_F(ChainRules, AnyNumberStartsAndThenOnlyUnusedDivisorsAndMultiplesFollow) {
  const auto game = chain(30);
  core::StateBlob s = game->initial_state();
  EXPECT_EQ(legal(*game, s).size(), 30u);
  EXPECT_EQ(game->current_player(s), 0);
  game->apply_move(s, 5);                                                                // 6
  EXPECT_EQ(legal(*game, s), (std::vector<uint32_t>{0, 1, 2, 11, 17, 23, 29}));          // 1 2 3 12 18 24 30
  game->apply_move(s, 2);                                                                // 3
  EXPECT_EQ(legal(*game, s), (std::vector<uint32_t>{0, 8, 11, 14, 17, 20, 23, 26, 29})); // 1 9 12 15 ... 30
  EXPECT_EQ(game->score(s), 9);
  EXPECT_EQ(game->state_to_string(s), "chain 6 3");
  // 17 has no multiple up to 30, and 1 divides it: 1 alone may follow it, and anything unused may follow 1.
  const core::StateBlob prime = game->state_from_string("chain 17");
  EXPECT_EQ(legal(*game, prime), (std::vector<uint32_t>{0}));
  EXPECT_EQ(legal(*game, game->state_from_string("chain 17 1")).size(), 28u);
}

TEST_F(ChainRules, TheChainEndsWhenNoNumberMayFollow) {
  const auto game = chain(6);
  const core::StateBlob s = game->state_from_string("chain 5 1 2 4");
  EXPECT_EQ(legal(*game, s), (std::vector<uint32_t>{}));
  EXPECT_EQ(game->current_player(s), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(game->score(s), 12);
  const core::StateBlob t = game->state_from_string("chain 5 1 3 6 2 4");
  EXPECT_EQ(game->current_player(t), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(game->score(t), 21);
}

TEST_F(ChainRules, TextRoundTripsAndBadTextIsRefusedWithItsReason) {
  const auto game = chain(12);
  EXPECT_EQ(game->state_to_string(game->state_from_string("chain 12 4 8")), "chain 12 4 8");
  EXPECT_EQ(game->state_to_string(game->initial_state()), "chain");
  EXPECT_EQ(refusal([&] { game->state_from_string("chain 4 6"); }),
            "test_chain state 'chain 4 6': 6 cannot follow chain 4 (used already, or neither a divisor nor a multiple "
            "of 4)");
  EXPECT_EQ(refusal([&] { game->state_from_string("chain 4 2 4"); }),
            "test_chain state 'chain 4 2 4': 4 cannot follow chain 4 2 (used already, or neither a divisor nor a "
            "multiple of 2)");
  EXPECT_EQ(refusal([&] { game->state_from_string("chain 13"); }),
            "test_chain state 'chain 13': '13' is not a number in 1..12");
  EXPECT_EQ(refusal([&] { game->state_from_string("chain 3x"); }),
            "test_chain state 'chain 3x': '3x' is not a number in 1..12");
  EXPECT_EQ(refusal([&] { game->state_from_string("1 2"); }),
            "test_chain state '1 2': expected 'chain' and its numbers");
}

TEST_F(ChainRules, NumbersOutsideTheRangeAreRefused) {
  const auto& tables = catalog_->find("test_chain")->tables;
  EXPECT_NE(refusal([&] {
              core::GameInstance(tables, host::resolve_params(*tables.game, toml::table{{"numbers", 33}}).values);
            }).find("numbers"),
            std::string::npos);
  std::vector<gsdk_param_value> values = host::resolve_params(*tables.game, {}).values;
  values[0].int_value = 40; // past the host's check: the plugin refuses on its own
  gsdk_game_instance* instance = nullptr;
  char error[256] = {};
  EXPECT_EQ(tables.game->create(values.data(), static_cast<uint32_t>(values.size()), &instance, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "numbers = 40, expected an integer in 2..32");
}

TEST_F(ChainRules, MoveCodesAreTheNumbersAndRecurAlongAChain) {
  const auto game = chain(20);
  const gsdk_move_codes& codes = *game->tables().move_codes;
  EXPECT_EQ(codes.code_count(game->handle()), 20u);
  core::StateBlob s = game->state_from_string("chain 2");
  EXPECT_EQ(codes.move_code(game->handle(), s.data(), 3), 3u); // 4 after 2
  game->apply_move(s, 3);
  EXPECT_EQ(codes.move_code(game->handle(), s.data(), 7), 7u); // 8 after 4: legal after 2 too
}

TEST_F(ChainRules, BatchPlayoutsReplayToTheirScores) {
  const auto game = chain(24);
  for (const bool from_the_start : {true, false}) {
    const core::StateBlob start = from_the_start ? game->initial_state() : game->state_from_string("chain 12 6");
    std::vector<uint64_t> histogram(game->histogram_bins());
    gsdk_playout_summary summary{};
    summary.histogram = histogram.data();
    summary.histogram_bins = static_cast<uint32_t>(histogram.size());
    reset_summary(summary);
    const gsdk_playout_request request = playout_request(7, 100, 2000, from_the_start ? nullptr : start.data());
    char error[256] = {};
    ASSERT_EQ(game->tables().cpu_playouts->run(game->handle(), &request, &summary, error, sizeof error), GSDK_OK)
        << error;
    ASSERT_EQ(summary.playouts, 2000u);
    EXPECT_LT(summary.worst_score, summary.best_score);
    for (const auto& [playout, score] :
         {std::pair{summary.best_playout, summary.best_score}, std::pair{summary.worst_playout, summary.worst_score}}) {
      std::vector<uint32_t> moves(64);
      const uint32_t n =
          game->tables().replay->playout_moves(game->handle(), 7, playout, from_the_start ? nullptr : start.data(),
                                               moves.data(), static_cast<uint32_t>(moves.size()), error, sizeof error);
      core::StateBlob s = start;
      for (uint32_t k = 0; k < n; ++k) game->apply_move(s, moves[k]);
      EXPECT_EQ(game->current_player(s), GSDK_PLAYER_TERMINAL);
      EXPECT_EQ(game->score(s), score);
    }
  }
}

TEST_F(ChainRules, PlayoutsFromAStateThatIsNoChainAreRefused) {
  const auto game = chain(12);
  core::StateBlob s = game->state_from_string("chain 3 6");
  s[0] ^= 0x10; // mark 5 used
  std::vector<uint64_t> histogram(game->histogram_bins());
  gsdk_playout_summary summary{};
  summary.histogram = histogram.data();
  summary.histogram_bins = static_cast<uint32_t>(histogram.size());
  reset_summary(summary);
  const gsdk_playout_request request = playout_request(1, 0, 10, s.data());
  char error[256] = {};
  EXPECT_EQ(game->tables().cpu_playouts->run(game->handle(), &request, &summary, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "test_chain: the playout start state is not a chain of 1..12: its fields disagree with its "
                      "numbers");
}

} // namespace
} // namespace gsdk::test
