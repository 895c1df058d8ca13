// worker_pool.cpp - joined worker threads with first-exception forwarding.
#include "gsdk/core/runtime/worker_pool.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gsdk::core {

void run_workers(unsigned workers, const std::function<void(unsigned)>& body) {
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto guarded = [&](unsigned worker) {
    try {
      body(worker);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(guarded, w);
  if (workers > 0) guarded(0);
  for (auto& t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

unsigned available_cpu_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

} // namespace gsdk::core
