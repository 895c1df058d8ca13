// work_queue.hpp - the numbered work items that one job's CPU workers and GPU streams pull from, with
// the job's first failure, which stops further claims, and the job's stop request, which does too. Internal to
// the core's schedulers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "gsdk/core/runtime/stop_request.hpp"

namespace gsdk::core {

struct WorkQueue {
  uint64_t total = 0; // items
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> done{0}; // progress, in whatever unit the scheduler reports
  std::atomic<bool> stop{false}; // after a failure
  const StopRequest* stop_request = nullptr; // the job's
  std::atomic<bool> stopped{false};          // a claim was refused because of stop_request
  std::mutex error_mutex;
  std::string error;

  // Claims up to `count` consecutive items [first, end); an empty range when none are left, after a
  // failure or once the job is asked to stop.
  std::pair<uint64_t, uint64_t> claim(uint64_t count) {
    if (stop.load()) return {0, 0};
    if (stop_requested(stop_request)) {
      if (next.load() < total) stopped = true;
      return {0, 0};
    }
    const uint64_t first = next.fetch_add(count);
    if (first >= total) return {0, 0};
    return {first, std::min(first + count, total)};
  }

  void fail(const std::string& message) {
    std::lock_guard lock(error_mutex);
    if (error.empty()) error = message;
    stop = true;
  }
};

} // namespace gsdk::core
