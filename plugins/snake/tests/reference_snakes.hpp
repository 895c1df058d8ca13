// reference_snakes.hpp - slow, obvious companions of reference_rules.hpp for the perft, key and evaluation tests:
// perft by recursion over vertex lists, every snake of a small cube, and the free and reachable measures by a plain
// breadth-first search over the cube's vertices. None calls the plugin's rules.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "reference_rules.hpp"

namespace snake::test {

struct Path {
  std::vector<uint32_t> vertices{0}; // from vertex 0, the head last
  std::vector<uint32_t> moves;
};

// Whether a move may enter v beyond the rules (a blocked sub-cube); none by default.
using Forbidden = std::function<bool(uint32_t)>;

inline std::vector<uint32_t> reference_moves(uint32_t d, bool symmetry_breaking, const Path& p,
                                             const Forbidden& forbidden) {
  std::vector<uint32_t> legal;
  for (uint32_t k : reference_legal_moves(d, symmetry_breaking, p.vertices, p.moves))
    if (!forbidden || !forbidden(p.vertices.back() ^ (1u << k))) legal.push_back(k);
  return legal;
}

inline Path extended(const Path& p, uint32_t k) {
  Path next = p;
  next.vertices.push_back(p.vertices.back() ^ (1u << k));
  next.moves.push_back(k);
  return next;
}

inline uint64_t reference_perft(uint32_t d, bool symmetry_breaking, const Path& p, uint32_t depth,
                                const Forbidden& forbidden = {}) {
  if (depth == 0) return 1;
  uint64_t leaves = 0;
  for (uint32_t k : reference_moves(d, symmetry_breaking, p, forbidden))
    leaves += reference_perft(d, symmetry_breaking, extended(p, k), depth - 1, forbidden);
  return leaves;
}

// Every snake of the d-cube from vertex 0 (the empty one included).
inline void every_snake(uint32_t d, bool symmetry_breaking, const Path& p, std::vector<Path>& out) {
  out.push_back(p);
  for (uint32_t k : reference_moves(d, symmetry_breaking, p, {}))
    every_snake(d, symmetry_breaking, extended(p, k), out);
}

// Free: neither the head nor equal or adjacent to a vertex before it.
inline bool reference_free(const Path& p, uint32_t v) {
  if (v == p.vertices.back()) return false;
  for (size_t i = 0; i + 1 < p.vertices.size(); ++i)
    if (std::popcount(v ^ p.vertices[i]) <= 1) return false;
  return true;
}

struct ReferenceFitness {
  uint32_t free = 0, reachable = 0, dead_ends = 0;
  int32_t reachable_value() const { return 2 * int32_t(reachable) - (dead_ends > 1 ? int32_t(dead_ends) - 1 : 0); }
};

inline ReferenceFitness reference_fitness(uint32_t d, const Path& p) {
  const uint32_t n = 1u << d, head = p.vertices.back();
  ReferenceFitness f;
  std::vector<bool> free(n), seen(n, false);
  for (uint32_t v = 0; v < n; ++v) f.free += (free[v] = reference_free(p, v)) ? 1 : 0;
  std::queue<uint32_t> queue;
  queue.push(head);
  seen[head] = true;
  while (!queue.empty()) {
    const uint32_t v = queue.front();
    queue.pop();
    for (uint32_t k = 0; k < d; ++k) {
      const uint32_t u = v ^ (1u << k);
      if (free[u] && !seen[u]) seen[u] = true, queue.push(u);
    }
  }
  for (uint32_t v = 0; v < n; ++v) {
    if (!seen[v] || v == head) continue;
    ++f.reachable;
    uint32_t open = 0;
    for (uint32_t k = 0; k < d; ++k) open += (free[v ^ (1u << k)] || (v ^ (1u << k)) == head) ? 1 : 0;
    if (open <= 1) ++f.dead_ends;
  }
  return f;
}

} // namespace snake::test
