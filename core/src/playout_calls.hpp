// playout_calls.hpp - the request and summary a call to a plugin's playout table takes, built in one
// place for the scheduler and the search's leaf evaluators.
#pragma once

#include <cstdint>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/playout_summary.hpp"

namespace gsdk::core {

// Playouts [first, first + count) of seed from start (NULL: the initial state).
inline gsdk_playout_request playout_request(uint64_t seed, uint64_t first, uint64_t count, const void* start,
                                            int32_t simd_level) {
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof(gsdk_playout_request)};
  r.seed = seed;
  r.first_playout = first;
  r.playout_count = count;
  r.start_state = start;
  r.simd_level = simd_level;
  return r;
}

// A reset summary whose histogram is the caller's buffer (reused between calls, so none allocates).
inline gsdk_playout_summary summary_over(std::vector<uint64_t>& histogram) {
  gsdk_playout_summary s{};
  s.histogram = histogram.data();
  s.histogram_bins = static_cast<uint32_t>(histogram.size());
  reset_summary(s);
  return s;
}

} // namespace gsdk::core
