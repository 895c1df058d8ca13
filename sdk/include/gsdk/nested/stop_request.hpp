// stop_request.hpp - how a long-running search reads the host's stop request (ABI 1.6's run_stoppable): a
// word of device memory the host sets from another stream while the kernel runs. The read must reach L2,
// where the host's copy lands, not a stale L1 line; a volatile load does that. A search that reads it at the
// start of a step and tests it at the end hides the load's latency behind the step's work. Host and device
// code alike (the search routines also run on the host in the tests).
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::nested {

// False when there is no request (null) or it is still 0.
GSDK_HD bool stop_requested(const uint32_t* stop) {
  return stop != nullptr && *static_cast<const volatile uint32_t*>(stop) != 0;
}

} // namespace gsdk::nested
