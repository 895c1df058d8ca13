// tictactoe_fixture.hpp - the search tests' fixture for test_tictactoe (a game with an evaluation and an exact range
// but no search code of its own), and games of an agent against uniform random moves, for the agents that use the
// game's evaluation (alpha-beta, evaluation-valued UCT).
#pragma once

#include <memory>

#include "gsdk/core/agents/agents.hpp"
#include "search_fixture.hpp"

namespace gsdk::test {

class TicTacToeSearchTest : public SearchTest {
protected:
  static void SetUpTestSuite() {
    SearchTest::SetUpTestSuite();
    catalog_->load_file(test_plugin_dir("valid") / "test_tictactoe.so");
  }
  static std::unique_ptr<core::GameInstance> tictactoe(const toml::table& params = {}) {
    return make("test_tictactoe", params);
  }
};

// Plays `games` games of the agent against uniform random moves, colours alternating; returns the agent's losses.
inline int losses_against_random(const core::GameInstance& game, const core::AgentSettings& settings, int games) {
  core::AgentSettings random;
  int lost = 0;
  for (int g = 0; g < games; ++g) {
    const auto agent = core::make_agent(game, settings), opponent = core::make_agent(game, random);
    agent->new_game(static_cast<uint64_t>(g));
    opponent->new_game(static_cast<uint64_t>(g) + 1000);
    const int32_t seat = g % 2;
    core::StateBlob s = game.initial_state();
    while (game.current_player(s) >= 0) {
      const core::StateBlob before = s;
      const uint32_t move = (game.current_player(s) == seat ? agent : opponent)->choose_move(s);
      agent->observe_move(before, move);
      game.apply_move(s, move);
    }
    const int64_t score = game.score(s);
    lost += seat == 0 ? score < 0 : score > 0;
  }
  return lost;
}

} // namespace gsdk::test
