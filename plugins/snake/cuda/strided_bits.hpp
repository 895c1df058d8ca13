// strided_bits.hpp - the blocked-vertex bitsets snake's kernels keep in shared memory, one per thread (or per
// warp), their words interleaved (word w of thread t at w * blockDim + t) so that a warp's 32 accesses always
// hit 32 different banks: a view of a playout's workspace slot (gsdk/nested/strided_words.hpp).
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace snake::cuda {

struct StridedBits {
  uint32_t* word0;
  uint32_t stride;
  GSDK_HD bool test(uint32_t v) const { return (word0[(v >> 5) * stride] >> (v & 31)) & 1u; }
  GSDK_HD void set(uint32_t v) const { word0[(v >> 5) * stride] |= 1u << (v & 31); }
};

// 32-bit words needed for the vertices of dimension d.
GSDK_HD uint32_t words32(uint32_t dimension) {
  return dimension <= 5 ? 1u : 1u << (dimension - 5);
}

} // namespace snake::cuda
