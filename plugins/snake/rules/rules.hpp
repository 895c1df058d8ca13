// rules.hpp - the snake-in-the-box rules over any bitset of blocked vertices, shared by the per-state
// table, the CPU playouts and the CUDA kernel (each with its own bitset layout), so they cannot drift.
//
// A snake is a path from vertex 0 that never enters a vertex equal or adjacent to one of its earlier
// vertices other than its head. The rules keep one bit per vertex, set when the vertex can no longer be
// entered: on leaving the head h, h and all its neighbours become blocked. That suffices, because a
// neighbour x of the new head m = h ^ (1 << k) other than h differs from h in two bits, so h itself never
// forbids x; only vertices before h do, and they are already in the set.
//
// Symmetry breaking (optional): every permutation of the dimensions maps snakes to snakes, so it is enough
// to search snakes whose dimensions appear in order of first use. A move may then flip a dimension used
// before or the lowest unused one; the first three moves are forced to 0, 1, 2.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "hypercube.hpp"

namespace snake {

struct Rules {
  uint32_t dimension;
  bool symmetry_breaking;
};

// Where a snake stands in a walk: its head, the dimensions it has flipped so far, its edges.
struct Walk {
  uint32_t head;
  uint32_t used_dimensions; // bit k: dimension k was flipped by some move
  uint32_t length;
};

// NRPA's move codes: the head vertex and the dimension flipped, head * d + k. A snake visits a vertex once, so
// the codes legal at one of its steps are legal at no other.
GSDK_HD uint32_t nrpa_code(const Rules& rules, uint32_t head, uint32_t k) {
  return head * rules.dimension + k;
}
GSDK_HD uint32_t nrpa_code_count(const Rules& rules) {
  return (1u << rules.dimension) * rules.dimension;
}

// The dimensions a next move may flip, before looking at the blocked vertices.
GSDK_HD uint32_t allowed_dimensions(const Rules& rules, uint32_t used) {
  const uint32_t all = all_dimensions(rules.dimension);
  if (!rules.symmetry_breaking) return all;
  const uint32_t lowest_unused = ~used & (used + 1);
  return (used | lowest_unused) & all;
}

// Bit k set when moving the head along dimension k is legal.
template <typename Blocked>
GSDK_HD uint32_t legal_dimensions(const Rules& rules, const Blocked& blocked, const Walk& walk) {
  uint32_t legal = 0;
  for (uint32_t rest = allowed_dimensions(rules, walk.used_dimensions); rest; rest &= rest - 1) {
    const uint32_t k = lowest_bit(rest);
    if (!blocked.test(walk.head ^ (1u << k))) legal |= 1u << k;
  }
  return legal;
}

// How many legal moves the snake would have after moving along dimension k (legal now), without
// changing anything: the new head's free neighbours, less the old head (see the top comment).
template <typename Blocked>
GSDK_HD uint32_t continuations_after(const Rules& rules, const Blocked& blocked, const Walk& walk, uint32_t k) {
  const Walk next{walk.head ^ (1u << k), walk.used_dimensions | (1u << k), walk.length + 1};
  return static_cast<uint32_t>(gsdk::bits::popcount32(legal_dimensions(rules, blocked, next) & ~(1u << k)));
}

// Moves the head along dimension k (a legal move).
// Blocked is a view (a pointer and a layout), so a const view still writes the bits it points to.
template <typename Blocked> GSDK_HD void advance(const Rules& rules, const Blocked& blocked, Walk& walk, uint32_t k) {
  blocked.set(walk.head);
  for (uint32_t j = 0; j < rules.dimension; ++j) blocked.set(walk.head ^ (1u << j));
  walk.head ^= 1u << k;
  walk.used_dimensions |= 1u << k;
  ++walk.length;
}

// A bitset of 64-bit words, vertex v at bit v % 64 of word v / 64 (host-side states and CPU playouts).
struct WordBits {
  uint64_t* words;
  GSDK_HD bool test(uint32_t v) const { return (words[v >> 6] >> (v & 63)) & 1u; }
  GSDK_HD void set(uint32_t v) const { words[v >> 6] |= uint64_t{1} << (v & 63); }
};

struct ConstWordBits {
  const uint64_t* words;
  GSDK_HD bool test(uint32_t v) const { return (words[v >> 6] >> (v & 63)) & 1u; }
};

// 64-bit words needed for the vertices of dimension d.
GSDK_HD constexpr uint32_t words64(uint32_t dimension) {
  return dimension <= 6 ? 1u : 1u << (dimension - 6);
}

} // namespace snake
