// random_snake.hpp - one random playout to the end under a policy: the playout every engine (CPU batch,
// CUDA kernel, replay, the tests) runs, so they agree move for move.
//
// Policies:
//  - uniform: each legal move with equal probability;
//  - kinny (Kinny's heuristic): the legal moves after which the snake has exactly one legal move are
//    preferred; when there are some, one of them is drawn uniformly, else one of all legal moves is.
//    Such moves hug the snake's own boundary, which packs it tighter.
//  - tight: Kinny's idea without its blind spot: the legal moves after which the snake has the fewest legal
//    moves, but at least one, are drawn from uniformly; a move into a dead end only when every move is one.
// Playout number k of seed s draws from a splitmix64 sequence started at Philox(s; k, tag): one draw per
// move with more than one candidate, none for a forced move.
#pragma once

#include <cstdint>

#include "gsdk/rng/philox.hpp"
#include "gsdk/rng/splitmix64.hpp"
#include "rules.hpp"

namespace snake {

enum class Policy : uint32_t { uniform = 0, kinny = 1, tight = 2 };

GSDK_HD gsdk::rng::SplitMix64 playout_stream(uint64_t seed, uint64_t playout) {
  return gsdk::rng::SplitMix64(gsdk::rng::philox_block(seed, playout, uint64_t{0x736e616b65})[0]);
}

// The moves the policy draws from among the legal ones (non-empty when legal is).
template <typename Blocked>
GSDK_HD uint32_t candidate_dimensions(const Rules& rules, Policy policy, const Blocked& blocked, const Walk& walk,
                                      uint32_t legal) {
  // A forced move is its own candidate under every policy: no continuations to count.
  if (policy == Policy::uniform || (legal & (legal - 1)) == 0) return legal;
  uint32_t fewest = 0, fewest_count = ~0u;
  for (uint32_t rest = legal; rest; rest &= rest - 1) {
    const uint32_t k = lowest_bit(rest);
    const uint32_t after = continuations_after(rules, blocked, walk, k);
    if (policy == Policy::kinny) {
      if (after == 1) fewest |= 1u << k;
      continue;
    }
    if (after == 0 || after > fewest_count) continue;
    if (after < fewest_count) fewest = 0, fewest_count = after;
    fewest |= 1u << k;
  }
  return fewest ? fewest : legal;
}

struct NoMoveLog {
  GSDK_HD void operator()(uint32_t) const {}
};

// Plays from walk over blocked (both updated) until no move is legal; returns the snake's length.
// log(k) sees every move.
template <typename Blocked, typename MoveLog = NoMoveLog>
GSDK_HD uint32_t random_snake(const Rules& rules, Policy policy, const Blocked& blocked, Walk& walk, uint64_t seed,
                              uint64_t playout, MoveLog log = MoveLog{}) {
  gsdk::rng::SplitMix64 random = playout_stream(seed, playout);
  for (;;) {
    const uint32_t legal = legal_dimensions(rules, blocked, walk);
    if (legal == 0) return walk.length;
    const uint32_t candidates = candidate_dimensions(rules, policy, blocked, walk, legal);
    const auto count = static_cast<uint32_t>(gsdk::bits::popcount32(candidates));
    const uint32_t k =
        count == 1 ? lowest_bit(candidates) : nth_bit(candidates, gsdk::rng::scaled_index(random.next(), count));
    advance(rules, blocked, walk, k);
    log(k);
  }
}

} // namespace snake
