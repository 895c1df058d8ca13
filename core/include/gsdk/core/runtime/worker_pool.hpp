// worker_pool.hpp - runs one function on N threads at once, forwarding the first exception; the threads are
// kept between calls (a persistent pool that grows on demand), so a call costs a wake-up, not a thread start.
#pragma once

#include <functional>

namespace gsdk::core {

// Calls body(worker) for worker in [0, workers) on separate threads, all running at once (the caller's thread
// runs worker 0), and returns when all are done. If any throws, the first exception is rethrown once all have
// finished. Safe to call from inside a body (nested calls) and from several threads at the same time; each
// call gets workers - 1 threads of its own, started when none is idle, so bodies may wait for one another.
// Threads left idle are kept for later calls; a child process made by fork() starts a pool of its own.
// Throws std::invalid_argument for an empty body, std::runtime_error when a thread cannot be started (then
// no worker has run).
void run_workers(unsigned workers, const std::function<void(unsigned worker)>& body);

// Hardware threads available to this process (at least 1).
unsigned available_cpu_threads();

} // namespace gsdk::core
