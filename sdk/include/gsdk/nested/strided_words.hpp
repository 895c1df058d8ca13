// strided_words.hpp - one thread's slot of 32-bit words in an interleaved block array (word w of slot t at
// w * stride + t), the per-thread workspace the nested-search kernels give a game's playouts in shared memory:
// interleaved, a warp's 32 threads reading their word w hit 32 different banks. The host-side tests of the
// search routines use the same view over a plain array.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::nested {

struct StridedWords {
  uint32_t* word0;
  uint32_t stride;
  GSDK_HD uint32_t& operator[](uint32_t w) const { return word0[w * stride]; }
};

} // namespace gsdk::nested
