// stop_request.hpp - a request to end a job early that whoever started the job may raise at any time
// (a signal handler, a test, a user interface). Every job struct carries a pointer to one; its workers
// read it before they claim the next work item, finish the items they hold, and the job returns what
// completed, marked as stopped.
//
// Raising it is a store to a lock-free atomic and nothing else, so a signal handler may do it.
#pragma once

#include <atomic>

namespace gsdk::core {

class StopRequest {
public:
  void request() noexcept { requested_.store(true, std::memory_order_relaxed); }
  bool requested() const noexcept { return requested_.load(std::memory_order_relaxed); }

private:
  static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler must be able to raise a stop request");
  std::atomic<bool> requested_{false};
};

// Whether `stop` is given and raised; jobs without one never stop early.
inline bool stop_requested(const StopRequest* stop) noexcept {
  return stop != nullptr && stop->requested();
}

} // namespace gsdk::core
