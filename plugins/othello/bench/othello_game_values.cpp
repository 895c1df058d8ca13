// othello_game_values.cpp - where Othello games were decided: replays `gsdk match --record` files and,
// from the first position with EMPTIES or fewer empty squares on, solves every position exactly (win,
// draw or loss for AGENT, the player whose Player tag contains AGENT_TEXT). Prints each game's value
// changes and who made them, then the totals: the value at EMPTIES, how often each side threw value away,
// the wins, and the wins had AGENT never lost value from there on (the opponent's mistakes kept as made;
// an estimate, since a better move would have led to other positions). docs/perf/othello.md uses it.
// Usage: othello_game_values EMPTIES AGENT_TEXT RECORD.pgn...   (EMPTIES <= 24; at 22, ~5 s a game)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "othello_records.hpp"
#include "tests/endgame_solver.hpp"

namespace {

using namespace othello;
using bench::empties;

struct Totals {
  int games = 0, start[3] = {}, thrown = 0, agent_losses = 0, other_losses = 0, wins = 0, wins_if_kept = 0;
};

// The exact win/draw/loss (1, 0, -1) for `player` of a position.
int value_for(const Position& p, uint32_t player) {
  const int mover = test::solve(p, -1, 1);
  const int v = mover > 0 ? 1 : mover < 0 ? -1 : 0;
  return p.side == player ? v : -v;
}

void analyse(const bench::GameRecord& game, const std::string& agent_text, int limit, Totals& totals) {
  const bool agent_black = game.player0.find(agent_text) != std::string::npos;
  if (!agent_black && game.player1.find(agent_text) == std::string::npos)
    throw std::runtime_error(game.where + ": neither player is '" + agent_text + "'");
  const uint32_t agent = agent_black ? kBlack : kWhite;
  std::printf("%s, agent %s, %s:", game.where.c_str(), agent_black ? "black" : "white", game.result.c_str());
  Position p = start_position();
  int value = 2, kept = 0; // 2: not yet at `limit` empties; kept: the value had the agent never lost any
  bool thrown = false;
  uint32_t last_mover = kBlack;
  for (size_t ply = 0; ply <= game.moves.size(); ++ply) {
    if (empties(p) <= limit && !game_over(p)) {
      const int now = value_for(p, agent);
      if (value == 2) {
        kept = now;
        ++totals.start[now + 1];
        std::printf(" %d empties %+d", empties(p), now);
      } else if (now != value) {
        // A move can only keep or lower its mover's value: a change is always the mover's mistake.
        const bool by_agent = last_mover == agent;
        thrown = true;
        ++(by_agent ? totals.agent_losses : totals.other_losses);
        if (!by_agent) kept = std::clamp(kept + now - value, -1, 1);
        std::printf(", %s %+d at %d", by_agent ? "agent" : "other", now, empties(p));
      }
      value = now;
    }
    if (ply == game.moves.size()) break;
    last_mover = p.side;
    play(p, game.moves[ply]);
  }
  const bool won = game.result == (agent_black ? "1-0" : "0-1");
  std::printf("\n");
  ++totals.games;
  totals.thrown += thrown;
  totals.wins += won;
  totals.wins_if_kept += value == 2 ? won : kept == 1;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s EMPTIES AGENT_TEXT RECORD.pgn...\n", argv[0]);
    return 2;
  }
  const int limit = std::atoi(argv[1]);
  if (limit < 1 || limit > 24) {
    std::fprintf(stderr, "EMPTIES %s: expected 1..24 (the solver's reach)\n", argv[1]);
    return 2;
  }
  Totals t;
  try {
    for (int f = 3; f < argc; ++f)
      for (const bench::GameRecord& game : bench::read_records(argv[f])) analyse(game, argv[2], limit, t);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  std::printf("games %d; agent's value at %d empties: %d won, %d drawn, %d lost; value thrown in %d games, %d times by "
              "the agent, %d by the other; wins %d; wins had the agent kept its value %d\n",
              t.games, limit, t.start[2], t.start[1], t.start[0], t.thrown, t.agent_losses, t.other_losses, t.wins,
              t.wins_if_kept);
  return 0;
}
