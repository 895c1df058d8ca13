// perft_rules.hpp - snake's rules as the SDK's breadth-first perft kernels take them (gsdk::nested::PerftRules):
// positions are the states themselves (gsdk::nested::StatePositions), played by rules/snake_state.hpp's play and
// legal_dimensions, the ones the per-state table uses, so the kernels' moves (dimension ascending, as
// Game::legal_moves lists them) and children are the CPU's byte for byte. device_rules.hpp, the nested searches'
// rules, keeps a search's snake as a view instead (its SearchPosition is not the state), which perft cannot
// store; hence this second, smaller set. A state is 3.3 KB in every dimension, so the SDK's kernels make each child
// with a warp (staged_states.cuh); counting moves reads only the words around the head.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/bit_moves.hpp"
#include "gsdk/nested/perft_rules.hpp"
#include "gsdk/nested/state_positions.hpp"
#include "rules/random_snake.hpp"
#include "rules/snake_state.hpp"

namespace snake::cuda {

struct PerftRules : gsdk::nested::StatePositions<State> {
  using Moves = gsdk::nested::BitMoves; // bit k: dimension k
  static constexpr const char* kOwner = "snake CUDA";

  Rules rules;

  GSDK_HD Moves legal_moves(const State& s) const { return {legal_dimensions(rules, s)}; }
  GSDK_HD void play(State& s, uint32_t k) const { snake::play(rules, s, k); }
  GSDK_HD int64_t score(const State& s) const { return s.length; }
  // A uniform random playout to the end, each move recorded in the state as play() records it (the concept asks
  // for one; perft never plays out).
  template <typename Log> GSDK_HD void playout(State& s, uint64_t seed, uint64_t stream, Log log) const {
    gsdk::rng::SplitMix64 random = playout_stream(seed, stream);
    for (uint32_t legal = legal_dimensions(rules, s); legal; legal = legal_dimensions(rules, s)) {
      const auto count = static_cast<uint32_t>(gsdk::bits::popcount32(legal));
      const uint32_t k = count == 1 ? lowest_bit(legal) : nth_bit(legal, gsdk::rng::scaled_index(random.next(), count));
      snake::play(rules, s, k);
      log(k);
    }
  }
};

// A mistake in the members above fails here, not deep inside a template.
static_assert(gsdk::nested::PerftRules<PerftRules>, "the GPU perft template takes snake's perft rules");

} // namespace snake::cuda
