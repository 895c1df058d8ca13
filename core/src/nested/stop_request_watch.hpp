// stop_request_watch.hpp - passes a raised stop request on to a device's searches, which only poll their own
// device flag: a thread of its own looks at the request every 50 ms and calls `on_stop` once when it is raised.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <stop_token>
#include <thread>
#include <utility>

#include "gsdk/core/runtime/stop_request.hpp"

namespace gsdk::core {

class StopRequestWatch {
public:
  // Starts no thread without a request or a callback.
  StopRequestWatch(const StopRequest* request, std::function<void()> on_stop) {
    if (!request || !on_stop) return;
    thread_ = std::jthread([request, on_stop = std::move(on_stop)](std::stop_token cancelled) {
      constexpr auto kPoll = std::chrono::milliseconds(50);
      while (!cancelled.stop_requested()) {
        if (request->requested()) {
          on_stop();
          return;
        }
        std::this_thread::sleep_for(kPoll);
      }
    });
  }

private:
  std::jthread thread_; // joined first on destruction, before what on_stop uses is gone
};

// Raises a device searcher's (Level1Searcher, NrpaSearcher) deadline now.
template <typename Searcher> void stop_searches_now(Searcher& searcher) noexcept {
  try {
    searcher.stop_at(std::chrono::steady_clock::now());
  } catch (const std::exception&) {
    // A device that cannot take the flag fails the searches' own calls too, which report it.
  }
}

} // namespace gsdk::core
