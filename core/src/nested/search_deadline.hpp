// search_deadline.hpp - ends a device's long searches at a run's deadline. A round of whole searches on a GPU
// (level-2 NMCS, NRPA) can run for minutes in large cubes, while a time budget is only checked between
// rounds; a searcher whose plugin can stop its searches (ABI 1.6's run_stoppable) passes them a device stop
// flag, and this raises it at the deadline from a thread of its own, so each search ends at its next step
// with the best it has.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "gsdk/core/runtime/cuda_devices.hpp"

namespace gsdk::core {

class SearchDeadline {
public:
  explicit SearchDeadline(int device) : flag_(device) {}
  // Joins the timer first: its thread must not raise a flag that is gone.
  ~SearchDeadline() { timer_ = {}; }

  // What the searches poll.
  const uint32_t* stop() const { return flag_.device_address(); }

  // Lowers the flag and raises it at `deadline` (replacing an earlier deadline); raises it before returning
  // when the deadline has passed.
  void arm(std::chrono::steady_clock::time_point deadline) {
    timer_ = {};
    if (deadline <= std::chrono::steady_clock::now()) {
      flag_.raise();
      return;
    }
    flag_.lower();
    timer_ = std::jthread([this, deadline](std::stop_token cancelled) {
      std::mutex mutex;
      std::condition_variable_any woken; // only by cancellation
      std::unique_lock lock(mutex);
      woken.wait_until(lock, cancelled, deadline, [] { return false; });
      if (cancelled.stop_requested()) return;
      try {
        flag_.raise();
      } catch (const std::exception&) {
        // A device that cannot take a 4-byte copy fails the searches' own calls too, which report it.
      }
    });
  }

private:
  DeviceStopFlag flag_;
  std::jthread timer_;
};

} // namespace gsdk::core
