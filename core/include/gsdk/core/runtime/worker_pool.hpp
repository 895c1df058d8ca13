// worker_pool.hpp - runs one function on N threads and joins them, forwarding the first exception.
#pragma once

#include <functional>

namespace gsdk::core {

// Calls body(worker) for worker in [0, workers) on separate threads (the caller's thread runs
// worker 0) and returns when all are done. If any throws, the first exception is rethrown.
void run_workers(unsigned workers, const std::function<void(unsigned worker)>& body);

// Hardware threads available to this process (at least 1).
unsigned available_cpu_threads();

} // namespace gsdk::core
