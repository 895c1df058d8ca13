// playout_calls.hpp - the request (the sdk's playout_request) and summary a call to a plugin's playout
// table takes, built in one place for the scheduler and the search's leaf evaluators.
#pragma once

#include <cstdint>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/playout_request.hpp"
#include "gsdk/playout_summary.hpp"

namespace gsdk::core {

// A reset summary whose histogram is the caller's buffer (reused between calls, so none allocates).
inline gsdk_playout_summary summary_over(std::vector<uint64_t>& histogram) {
  gsdk_playout_summary s{};
  s.histogram = histogram.data();
  s.histogram_bins = static_cast<uint32_t>(histogram.size());
  reset_summary(s);
  return s;
}

} // namespace gsdk::core
