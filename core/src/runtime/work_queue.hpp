// work_queue.hpp - the numbered work items that one job's CPU workers and GPU streams pull from, with
// the job's first failure, which stops further claims. Internal to the core's schedulers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

namespace gsdk::core {

struct WorkQueue {
  uint64_t total = 0; // items
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> done{0}; // progress, in whatever unit the scheduler reports
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::string error;

  // Claims up to `count` consecutive items [first, end); an empty range when none are left or after a
  // failure.
  std::pair<uint64_t, uint64_t> claim(uint64_t count) {
    if (stop.load()) return {0, 0};
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
