// evaluation.hpp - the fitness a beam search ranks snakes of equal length by (gsdk.evaluation.v1), and the
// state hash beside it. Host and device: the CPU table and the CUDA kernel (cuda/evaluation.cu) call these same
// functions, so their values agree to the bit.
//
// Two measures (the game parameter `evaluation`), both of the vertices a snake could still enter, "free" ones:
// neither blocked (on the snake, next to it, or in a blocked sub-cube) nor the head.
//  - free: their number F. Cheap, and a fair measure of how tightly the snake packs itself so far.
//  - reachable: 2 R - max(D - 1, 0), after Meyerson's fitness measures (Meyerson et al. 2015, "Finding longest
//    paths in hypercubes": unreachable vertices and dead ends). R counts the free vertices the head can reach
//    through free vertices: the others are lost for good, since a snake only grows from its head, so R bounds
//    the snake's future length where F does not. D counts the reachable free vertices with at most one neighbour
//    that is free or the head: a path can enter such a dead end but never leave it, so only one of them can ever
//    be on the snake (as its last vertex), and the others are lost too; "beyond the first" because one dead end
//    can be the snake's end. A dead end weighs half a reachable vertex (hence 2 R): it may still end up as a
//    neighbour of the snake, which every snake has to pay for anyway, so it is not lost outright.
// Both are non-negative (D <= R) and at most 2^(d+1), so scale 2^(d+2) (2^15 in dimension 13) bounds them
// strictly. The reachable set is a breadth-first flood fill run bit-parallel over the bitset's 64-bit words: the
// neighbours along dimension k < 6 are a masked shift inside each word, along k >= 6 the word whose index differs
// in bit k - 6.
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"
#include "snake_state.hpp"

namespace snake {

enum class Evaluation : uint32_t { free = 0, reachable = 1 };

GSDK_HD int32_t evaluation_scale(uint32_t dimension) {
  return int32_t{1} << (dimension + 2);
}

namespace fitness_detail {

inline constexpr uint32_t kWords = kMaxVertices / 64;

// The bits of word i that are vertices of the cube (all but the low 2^d of word 0 are outside below d = 6).
GSDK_HD uint64_t vertex_mask(uint32_t dimension) {
  return dimension >= 6 ? ~uint64_t{0} : (uint64_t{1} << (1u << dimension)) - 1;
}

// The bit positions of a word whose bit k (< 6) is clear: a vertex there and the one 2^k above it are neighbours
// along k.
GSDK_HD uint64_t low_half(uint32_t k) {
  switch (k) {
  case 0:
    return 0x5555555555555555ull;
  case 1:
    return 0x3333333333333333ull;
  case 2:
    return 0x0f0f0f0f0f0f0f0full;
  case 3:
    return 0x00ff00ff00ff00ffull;
  case 4:
    return 0x0000ffff0000ffffull;
  default:
    return 0x00000000ffffffffull;
  }
}

// Word i of the set of vertices adjacent along dimension k to a vertex of x (x over words64(d) words).
GSDK_HD uint64_t along(const uint64_t* x, uint32_t i, uint32_t k) {
  if (k >= 6) return x[i ^ (1u << (k - 6))];
  const uint64_t low = low_half(k);
  const uint32_t shift = 1u << k;
  return ((x[i] & low) << shift) | ((x[i] >> shift) & low);
}

GSDK_HD uint64_t head_bit(const State& s, uint32_t i) {
  return (s.head >> 6) == i ? uint64_t{1} << (s.head & 63) : 0;
}

GSDK_HD uint64_t free_word(const State& s, uint32_t i, uint64_t mask) {
  return ~s.blocked[i] & mask & ~head_bit(s, i);
}

GSDK_HD uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 29);
}

} // namespace fitness_detail

// F: the free vertices.
GSDK_HD uint32_t free_vertices(const State& s) {
  using namespace fitness_detail;
  const uint64_t mask = vertex_mask(s.dimension);
  uint32_t n = 0;
  for (uint32_t i = 0; i < words64(s.dimension); ++i) n += gsdk::bits::popcount64(free_word(s, i, mask));
  return n;
}

struct Reach {
  uint32_t reachable; // R
  uint32_t dead_ends; // D
};

GSDK_HD Reach reach(const State& s) {
  using namespace fitness_detail;
  const uint32_t d = s.dimension, words = words64(d);
  const uint64_t mask = vertex_mask(d);
  // seen: the head and the free vertices found so far; fresh: those the last round found.
  uint64_t seen[kWords], fresh[kWords];
  for (uint32_t i = 0; i < words; ++i) seen[i] = fresh[i] = head_bit(s, i);
  for (bool grew = true; grew;) {
    grew = false;
    uint64_t next[kWords];
    for (uint32_t i = 0; i < words; ++i) {
      uint64_t n = 0;
      for (uint32_t k = 0; k < d; ++k) n |= along(fresh, i, k);
      next[i] = n & free_word(s, i, mask) & ~seen[i];
      grew |= next[i] != 0;
    }
    for (uint32_t i = 0; i < words; ++i) seen[i] |= fresh[i] = next[i];
  }
  // Reused: the free vertices and the head, whose neighbour counts make the dead ends.
  for (uint32_t i = 0; i < words; ++i) fresh[i] = free_word(s, i, mask) | head_bit(s, i);
  Reach r{0, 0};
  for (uint32_t i = 0; i < words; ++i) {
    uint64_t one_or_more = 0, two_or_more = 0;
    for (uint32_t k = 0; k < d; ++k) {
      const uint64_t n = along(fresh, i, k);
      two_or_more |= one_or_more & n;
      one_or_more |= n;
    }
    const uint64_t reached = seen[i] & ~head_bit(s, i);
    r.reachable += gsdk::bits::popcount64(reached);
    r.dead_ends += gsdk::bits::popcount64(reached & ~two_or_more);
  }
  return r;
}

// The `reachable` measure of R and D (top comment): 2 R - max(D - 1, 0). The CUDA evaluation counts R and D its own
// way (by warps) and calls this too, so the formula lives here alone.
GSDK_HD int32_t reachable_value(uint32_t reachable, uint32_t dead_ends) {
  const int32_t extra_dead_ends = dead_ends > 1 ? static_cast<int32_t>(dead_ends) - 1 : 0;
  return 2 * static_cast<int32_t>(reachable) - extra_dead_ends;
}

// The value of a live snake under `kind`, in [0, 2^(d+1)].
GSDK_HD int32_t evaluate(Evaluation kind, const State& s) {
  if (kind == Evaluation::free) return static_cast<int32_t>(free_vertices(s));
  const Reach r = reach(s);
  return reachable_value(r.reachable, r.dead_ends);
}

// A 64-bit hash of the canonical state (canonical.hpp): the dimension, head, length, dimensions used and the
// blocked words, never the move list, so transposed snakes hash alike as they share a key.
GSDK_HD uint64_t state_hash(const State& s) {
  using fitness_detail::mix;
  uint64_t h = mix(0x736e616b65ull, uint64_t{s.dimension} | uint64_t{s.head} << 8 | uint64_t{s.length} << 24 |
                                        uint64_t{s.used_dimensions} << 40);
  for (uint32_t i = 0; i < words64(s.dimension); ++i) h = mix(h, s.blocked[i]);
  return h;
}

} // namespace snake
