// reference_rules.hpp - the snake rules the slow, obvious way, for tests: from the vertex list, a move
// is legal when its vertex is at Hamming distance two or more from every vertex but the head (and, under
// symmetry breaking, flips a dimension used before or the lowest unused one).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace snake::test {

inline std::vector<uint32_t> reference_legal_moves(uint32_t dimension, bool symmetry_breaking,
                                                   const std::vector<uint32_t>& vertices,
                                                   const std::vector<uint32_t>& moves) {
  std::vector<bool> used(dimension, false);
  for (uint32_t k : moves) used[k] = true;
  uint32_t lowest_unused = 0;
  while (lowest_unused < dimension && used[lowest_unused]) ++lowest_unused;
  const uint32_t head = vertices.back();
  std::vector<uint32_t> legal;
  for (uint32_t k = 0; k < dimension; ++k) {
    if (symmetry_breaking && !used[k] && k != lowest_unused) continue;
    const uint32_t v = head ^ (1u << k);
    bool free = true;
    for (size_t i = 0; i + 1 < vertices.size(); ++i)
      if (std::popcount(v ^ vertices[i]) <= 1) free = false;
    if (free) legal.push_back(k);
  }
  return legal;
}

} // namespace snake::test
