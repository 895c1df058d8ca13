// batch_split.hpp - runs fn(worker, i) for every i of a batch on up to `threads` threads, each thread taking
// consecutive indices, or on the calling thread alone when the batch is too small to pay for threads.
#pragma once

#include <algorithm>
#include <cstddef>

#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::core {

// Workers are numbered 0 .. threads - 1; each gets at least min_per_thread indices, because starting a
// thread costs tens of microseconds, as much as several playouts.
template <typename Fn> void split_batch(unsigned threads, size_t count, size_t min_per_thread, const Fn& fn) {
  const size_t useful = std::max<size_t>(1, count / std::max<size_t>(min_per_thread, 1));
  const unsigned workers = static_cast<unsigned>(std::min<size_t>(std::max(threads, 1u), useful));
  if (workers == 1) {
    for (size_t i = 0; i < count; ++i) fn(0u, i);
    return;
  }
  run_workers(workers, [&](unsigned worker) {
    const size_t begin = count * worker / workers, end = count * (worker + 1) / workers;
    for (size_t i = begin; i < end; ++i) fn(worker, i);
  });
}

} // namespace gsdk::core
