// cuda_calls.hpp - how a CUDA stream of the core's schedulers (perft, playouts) takes its job's work items: in
// calls sized from the last call's time. The first call takes one item, which measures the stream's speed; each
// later call takes the items that speed runs in kCudaCallSeconds (rounded down, at least one, at most the stream's
// `most`), so that a call keeps its device busy and is still short enough for a stop request to be honoured soon.
// Internal to the core's schedulers.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <tuple>

#include "runtime/work_queue.hpp"

namespace gsdk::core {

// How long a CUDA call of a job's items should take, in seconds.
inline constexpr double kCudaCallSeconds = 0.5;

// The items of the next call after a call of `items` took `seconds`.
inline uint64_t next_cuda_call_items(uint64_t items, double seconds, uint64_t most) {
  const double in_time = kCudaCallSeconds * static_cast<double>(items) / std::max(seconds, 1e-9);
  return std::clamp<uint64_t>(static_cast<uint64_t>(std::min(in_time, 1e18)), 1, most);
}

// Claims runs of consecutive items from `queue`, sized as above, and calls `call(item, end_item)` on each until the
// queue has none left (or refuses claims: a failure, a stop request). `Clock` is the clock the calls are timed by.
template <typename Clock = std::chrono::steady_clock, typename Call>
void run_cuda_calls(WorkQueue& queue, uint64_t most, Call&& call) {
  uint64_t items = 1;
  for (auto [item, end_item] = queue.claim(items); item < end_item; std::tie(item, end_item) = queue.claim(items)) {
    const auto began = Clock::now();
    call(item, end_item);
    const double seconds = std::chrono::duration<double>(Clock::now() - began).count();
    items = next_cuda_call_items(end_item - item, seconds, most);
  }
}

} // namespace gsdk::core
