// random_game.hpp - one random game to the end: the playout every engine (CPU batch, CUDA kernel,
// replay, the tests) runs, so they agree move for move.
//
// Playout number k of seed s draws from a splitmix64 sequence started at Philox(s; k, tag): one draw
// per move with a choice, none for a forced pass. The draw picks uniformly among the squares the
// playout policy keeps (all legal squares under `random`).
#pragma once

#include <cstdint>

#include "gsdk/rng/philox.hpp"
#include "gsdk/rng/splitmix64.hpp"
#include "playout_policy.hpp"
#include "position.hpp"

namespace othello {

GSDK_HD gsdk::rng::SplitMix64 playout_stream(uint64_t seed, uint64_t playout) {
  return gsdk::rng::SplitMix64(gsdk::rng::philox_block(seed, playout, uint64_t{0x4f7468656c6c6f})[0]);
}

struct NoMoveLog {
  GSDK_HD void operator()(uint32_t) const {}
};

// Plays from p until nobody can move and returns final_score. log(move) sees every move, passes too.
template <typename MoveLog = NoMoveLog>
GSDK_HD int32_t random_game(Position p, uint64_t seed, uint64_t playout, PlayoutPolicy policy,
                            MoveLog log = MoveLog{}) {
  gsdk::rng::SplitMix64 random = playout_stream(seed, playout);
  Bitboard moves = legal_moves(p);
  for (;;) {
    if (moves == 0) {
      pass(p);
      moves = legal_moves(p);
      if (moves == 0) break; // neither side can move
      log(kPass);
      continue;
    }
    const uint32_t square = playout_square(moves, p.own, p.opponent, policy, random.next());
    play(p, square);
    log(square);
    moves = legal_moves(p);
  }
  return final_score(p);
}

} // namespace othello
