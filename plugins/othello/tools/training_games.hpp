// training_games.hpp - the fitting tool's positions: game g of seed s draws from its own Philox stream, so its
// positions do not depend on the thread that plays it. Its first plies are uniformly random (openings vary),
// later ones epsilon-greedy over the hand-set evaluation's 1-ply values; from `exact_empties` empty squares on
// the game is finished by perfect play (exact_solver.hpp). Every position of the game is labelled with that
// final disc difference from its own side to move's view: exact for the positions on the perfect line, the
// perfect continuation's result for the earlier ones (fit_tool.cpp labels those again, by search).
#pragma once

#include <cstdint>
#include <vector>

#include "exact_solver.hpp"
#include "gsdk/rng/philox.hpp"
#include "gsdk/rng/splitmix64.hpp"
#include "rules/evaluation.hpp"

namespace othello::fit {

struct GameSettings {
  uint64_t seed = 1;
  uint32_t exact_empties = 14;
  uint32_t random_plies = 8; // uniformly random moves that open every game
  double epsilon = 0.1;      // the chance of a uniformly random move after them
};

struct LabelledPosition {
  Position position;
  double label; // discs, the side to move's view: the final difference (fit_tool.cpp relabels by search)
};

inline uint32_t uniform_square(Bitboard moves, uint64_t draw) {
  return nth_square(moves, static_cast<uint32_t>(draw % static_cast<uint64_t>(gsdk::bits::popcount64(moves))));
}

// The square whose child the hand-set evaluation likes least for the opponent (the lowest square on ties).
inline uint32_t greedy_square(const Position& p, Bitboard moves) {
  uint32_t best_square = lowest_square(moves);
  int32_t best = INT32_MIN;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    Position next = p;
    play(next, lowest_square(rest));
    const int32_t value = game_over(next) ? 64 * final_score(next) * (next.side == p.side ? 1 : -1) : -evaluate(next);
    if (value > best) {
      best = value;
      best_square = lowest_square(rest);
    }
  }
  return best_square;
}

inline std::vector<LabelledPosition> training_game(const GameSettings& settings, uint64_t game) {
  gsdk::rng::SplitMix64 random(gsdk::rng::philox_block(settings.seed, game, uint64_t{0x6576616c666974})[0]);
  std::vector<Position> played;
  Position p = start_position();
  for (uint32_t ply = 0; !game_over(p) && empty_count(p) > settings.exact_empties; ++ply) {
    played.push_back(p);
    const Bitboard moves = legal_moves(p);
    if (moves == 0) {
      pass(p);
      continue;
    }
    const bool explore =
        ply < settings.random_plies || static_cast<double>(random.next() >> 11) * 0x1.0p-53 < settings.epsilon;
    play(p, explore ? uniform_square(moves, random.next()) : greedy_square(p, moves));
  }
  int32_t black_result = 0; // the final disc difference, black's view
  if (game_over(p)) {
    black_result = final_score(p);
  } else {
    const int32_t value = exact_difference(p);
    black_result = p.side == kBlack ? value : -value;
    follow_perfect_line(p, value, [&](const Position& q) { played.push_back(q); });
  }
  std::vector<LabelledPosition> labelled;
  labelled.reserve(played.size());
  for (const Position& q : played) labelled.push_back({q, static_cast<double>(q.side == kBlack ? black_result : -black_result)});
  return labelled;
}

} // namespace othello::fit
