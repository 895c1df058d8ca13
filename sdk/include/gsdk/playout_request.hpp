// playout_request.hpp - a gsdk_playout_request built in one place, for the host's scheduler and leaf
// evaluators and for plugins' tests: playouts [first, first + count) of seed from start (NULL: the
// game's initial state), at most at the given SIMD level.
#pragma once

#include <cstdint>

#include "gsdk/gsdk_plugin.h"

namespace gsdk {

inline gsdk_playout_request playout_request(uint64_t seed, uint64_t first, uint64_t count, const void* start = nullptr,
                                            int32_t simd_level = GSDK_SIMD_SCALAR) {
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  r.seed = seed;
  r.first_playout = first;
  r.playout_count = count;
  r.start_state = start;
  r.simd_level = simd_level;
  return r;
}

} // namespace gsdk
