// state_positions.hpp - StatePositions<State>, the position members of PlayoutRules and NmcsRules
// (nmcs_rules.hpp) for a game whose whole state fits in registers: both kinds of position are the state blob
// itself, held by value, and no shared or global words are asked for. A game's device rules derive from it and
// write only the rules (legal_moves, play, score, playout); the breadth-first perft kernels
// (gsdk/cuda/perft_tables.cuh) need positions of this kind, since they store each child as a state.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/strided_words.hpp"

namespace gsdk::nested {

template <typename S> struct StatePositions {
  using State = S;
  using SearchPosition = S;
  using PlayoutPosition = S;

  GSDK_HD uint32_t workspace_words() const { return 0; }
  GSDK_HD uint32_t search_words() const { return 0; }
  GSDK_HD S search_position(const S& s) const { return s; }
  GSDK_HD S copy_state(const S& s, uint64_t*) const { return s; }
  GSDK_HD S copy_position(const S& p, uint64_t*) const { return p; }
  GSDK_HD S load(const S& p, StridedWords) const { return p; }
};

} // namespace gsdk::nested
