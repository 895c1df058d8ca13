// othello_endgame_positions.cpp - makes plugins/othello/bench/othello_endgame.sh's test positions from `gsdk match
// --record` files: every position of every game with LOW..HIGH empty squares where the side to move has a move that
// loses value, with the exact win/draw/loss value of its best move and all the moves that keep it (the
// exhaustive solver the Othello tests use as their oracle): about a second a position at 20 empties.
// Usage: othello_endgame_positions LOW HIGH RECORD.pgn... > positions.txt
// Output, a line per position: moves from the start ("pass" included) | side to move (b/w) | best value
// (1 win, 0 draw, -1 loss) | the moves that keep it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "othello_records.hpp"
#include "tests/endgame_solver.hpp"

namespace {

using namespace othello;
using bench::empties;

// The side to move's exact win/draw/loss after `move`: 1, 0 or -1.
int value_after(Position p, uint32_t move) {
  play(p, move);
  const int opponent = test::solve(p, -1, 1);
  return opponent < 0 ? 1 : opponent > 0 ? -1 : 0;
}

// Prints the game's positions that qualify (see the top comment).
void print_positions(const std::vector<uint32_t>& game, int low, int high) {
  Position p = start_position();
  for (size_t ply = 0; ply < game.size(); ++ply) {
    const Bitboard legal = legal_moves(p);
    const int e = empties(p);
    if (e >= low && e <= high && (legal & (legal - 1)) != 0) {
      std::vector<std::pair<uint32_t, int>> values;
      int best = -1;
      for (Bitboard rest = legal; rest; rest &= rest - 1) {
        values.emplace_back(lowest_square(rest), value_after(p, lowest_square(rest)));
        best = std::max(best, values.back().second);
      }
      std::string keeping, losing;
      for (const auto& [move, value] : values) (value == best ? keeping : losing) += " " + move_name(move);
      if (!losing.empty()) {
        std::string prefix;
        for (size_t k = 0; k < ply; ++k) prefix += (k ? " " : "") + move_name(game[k]);
        std::printf("%s|%s|%d|%s\n", prefix.c_str(), p.side == kBlack ? "b" : "w", best, keeping.c_str() + 1);
        std::fflush(stdout);
      }
    }
    play(p, game[ply]);
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s LOW HIGH RECORD.pgn... > positions.txt\n", argv[0]);
    return 2;
  }
  const int low = std::atoi(argv[1]), high = std::atoi(argv[2]);
  if (low < 1 || high > 24 || low > high) {
    std::fprintf(stderr, "empty squares %s..%s: expected 1 <= LOW <= HIGH <= 24 (the solver's reach)\n", argv[1],
                 argv[2]);
    return 2;
  }
  try {
    for (int f = 3; f < argc; ++f)
      for (const bench::GameRecord& game : bench::read_records(argv[f])) print_positions(game.moves, low, high);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
