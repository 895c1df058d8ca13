// perft_rules.hpp - PerftRules, the device rules (nmcs_rules.hpp's PlayoutRules) whose positions are the states
// themselves (StatePositions), and the leaf counts the breadth-first perft kernels (gsdk/cuda/perft_tables.cuh)
// take from them: perft 1 is the number of moves legal_moves lists (Moves' count() when it has one, else a
// walk), so a game whose CPU perft counts its own way (passes, say) must list the same moves. Host and device
// code both, so that a game's tests check the counts on the CPU.
#pragma once

#include <concepts>
#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/nmcs_rules.hpp"

namespace gsdk::nested {

// Perft stores every child as a state, so a position must be the state itself.
template <typename R>
concept PerftRules = PlayoutRules<R> && std::same_as<typename R::SearchPosition, typename R::State>;

// The plies the kernels count in place below the last stored level: a plugin's kCudaPerftLeafPlies.
inline constexpr uint32_t kPerftLeafPlies = 2;

template <PerftRules R> GSDK_HD uint32_t perft1(const R& rules, const typename R::State& s) {
  const typename R::Moves moves = rules.legal_moves(s);
  if constexpr (requires { moves.count(); }) {
    return moves.count();
  } else {
    uint32_t n = 0;
    for (typename R::Moves rest = moves; !rest.empty(); rest = rest.without_first()) ++n;
    return n;
  }
}

// perft(s, plies) for 1 <= plies <= kPerftLeafPlies.
template <PerftRules R> GSDK_HD uint32_t perft_leaves(const R& rules, const typename R::State& s, uint32_t plies) {
  if (plies == 1) return perft1(rules, s);
  uint32_t leaves = 0;
  for (typename R::Moves rest = rules.legal_moves(s); !rest.empty(); rest = rest.without_first()) {
    typename R::State child = s;
    rules.play(child, rest.first());
    leaves += perft1(rules, child);
  }
  return leaves;
}

} // namespace gsdk::nested
