// batch_split.hpp - runs a batch's indices on up to `threads` threads, each thread taking consecutive indices, or
// on the calling thread alone when the batch is too small to pay for threads.
#pragma once

#include <algorithm>
#include <cstddef>

#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::core {

// fn(worker, begin, end) once per worker over its range [begin, end) of [0, count); workers are numbered
// 0 .. threads - 1 and each gets at least min_per_thread indices, because starting a thread costs tens of
// microseconds, as much as several playouts.
template <typename Fn> void split_ranges(unsigned threads, size_t count, size_t min_per_thread, const Fn& fn) {
  const size_t useful = std::max<size_t>(1, count / std::max<size_t>(min_per_thread, 1));
  const unsigned workers = static_cast<unsigned>(std::min<size_t>(std::max(threads, 1u), useful));
  if (workers == 1) {
    fn(0u, size_t{0}, count);
    return;
  }
  run_workers(workers, [&](unsigned worker) { fn(worker, count * worker / workers, count * (worker + 1) / workers); });
}

// fn(worker, i) for every i of [0, count), split as split_ranges splits.
template <typename Fn> void split_batch(unsigned threads, size_t count, size_t min_per_thread, const Fn& fn) {
  split_ranges(threads, count, min_per_thread, [&](unsigned worker, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) fn(worker, i);
  });
}

} // namespace gsdk::core
