// stepped_game.hpp - random_game rewritten as a loop of equal steps, for the GPU's mobility playouts.
//
// A mobility move weighs each kept square with a make-and-count (its flips, then the opponent's replies)
// before it plays one. Written as random_game writes it, a thread runs its candidates one after another
// and the 32 lanes of a warp wait for the lane with the most. Here every pass through the loop is one
// make-and-count: of the next candidate, or of the square chosen, whose count is the next mover's legal
// moves and so also the next position's. The lanes stay in step, whatever their candidates, and play
// the same game as random_game: the same draw a move, the same kept squares, the same choice.
#pragma once

#include <cstdint>

#include "random_game.hpp"

namespace othello {

// Plays p until nobody can move, in place, and returns final_score, as random_game(p, seed, playout, policy, log):
// log(move) sees the same moves, passes too.
template <typename MoveLog = NoMoveLog>
GSDK_HD int32_t stepped_game_in_place(Position& p, uint64_t seed, uint64_t playout, PlayoutPolicy policy,
                                      MoveLog log = MoveLog{}) {
  gsdk::rng::SplitMix64 random = playout_stream(seed, playout);
  Bitboard moves = legal_moves(p);
  uint64_t draw = 0;
  Bitboard kept = 0, candidates = 0, best = 0;
  int least = 65;
  for (;;) {
    if (kept == 0) { // a new move: its draw and kept squares, after any forced pass
      if (moves == 0) {
        pass(p);
        moves = legal_moves(p);
        if (moves == 0) break; // neither side can move
        log(kPass);
      }
      draw = random.next();
      kept = policy_moves(moves, ~(p.own | p.opponent), policy);
      candidates = narrows_to_fewest_replies(policy, draw, kept) ? kept : 0;
      best = 0;
      least = 65;
    }
    const bool choosing = candidates == 0;
    if (choosing && best != 0) kept = best;
    const uint32_t square = choosing ? drawn_square(kept, draw) : lowest_square(candidates);
    const Bitboard flipped = flips(p.own, p.opponent, square);
    const Bitboard mover_after = p.own | flipped | square_bit(square), replier = p.opponent ^ flipped;
    const Bitboard replies = legal_moves(replier, mover_after);
    if (!choosing) {
      candidates &= candidates - 1;
      keep_fewest(square_bit(square), gsdk::bits::popcount64(replies), least, best);
      continue;
    }
    p.own = replier;
    p.opponent = mover_after;
    p.side ^= 1u;
    moves = replies;
    kept = 0;
    log(square);
  }
  return final_score(p);
}

GSDK_HD int32_t stepped_game(Position p, uint64_t seed, uint64_t playout, PlayoutPolicy policy) {
  return stepped_game_in_place(p, seed, playout, policy);
}

} // namespace othello
