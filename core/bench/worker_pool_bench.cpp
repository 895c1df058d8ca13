// worker_pool_bench.cpp - what run_workers costs per call and how a CPU-bound job scales over it
// (docs/perf/thread_pool.md): (a) an empty call's latency at 1, 2, 4, 8 and N workers, (b) a fixed amount of
// integer work in K chunks claimed from a WorkQueue at 1..2N workers, (c) the work queue and split_batch on
// small items, as a vectorised environment's step would use them.
//
// Usage: worker_pool_bench [REPEATS]   (default 7). (b) and (c1) give the median and fastest of the repeats,
// (a) and (c2) time 2000 x REPEATS calls one by one: a shared machine's neighbours add noise that only ever
// slows a run down, so the median and fastest say more than the mean, which is given beside them.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "gsdk/core/runtime/worker_pool.hpp"
#include "runtime/batch_split.hpp"
#include "runtime/work_queue.hpp"

namespace {

using gsdk::core::available_cpu_threads;
using gsdk::core::run_workers;
using gsdk::core::split_batch;
using gsdk::core::WorkQueue;
using Clock = std::chrono::steady_clock;

// Where every job's result ends up, so that the optimiser keeps the work.
volatile uint64_t result_sink = 0;

double seconds_of(const std::function<void()>& fn) {
  const auto began = Clock::now();
  fn();
  return std::chrono::duration<double>(Clock::now() - began).count();
}

struct Spread {
  double median = 0, fastest = 0;
};

Spread spread_of(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples.front()};
}

// Median and fastest of `repeats` timings of fn, each divided by `per`.
Spread timed(unsigned repeats, double per, const std::function<void()>& fn) {
  std::vector<double> samples;
  for (unsigned r = 0; r < repeats; ++r) samples.push_back(seconds_of(fn) / per);
  return spread_of(samples);
}

struct CallSpread {
  Spread spread;
  double mean = 0;
};

// Every one of `calls` calls of fn timed alone, in microseconds: the median and fastest call show what a call
// costs, the mean what a loop of calls pays once a busy machine's scheduler delays are counted too.
CallSpread per_call(unsigned calls, const std::function<void()>& fn) {
  std::vector<double> samples;
  double total = 0;
  for (unsigned c = 0; c < calls; ++c) {
    samples.push_back(seconds_of(fn) * 1e6);
    total += samples.back();
  }
  return {spread_of(samples), total / calls};
}

// Integer work the optimiser cannot fold away: `steps` rounds of a xorshift, its result returned.
uint64_t integer_work(uint64_t seed, uint64_t steps) {
  uint64_t x = seed | 1;
  for (uint64_t i = 0; i < steps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

std::vector<unsigned> worker_counts(unsigned most) {
  std::vector<unsigned> counts;
  for (unsigned w = 1; w < most; w *= 2) counts.push_back(w);
  counts.push_back(most);
  return counts;
}

// (a) One call's start-up and join, the body doing nothing.
void empty_calls(unsigned repeats, unsigned cpus) {
  const unsigned calls = 2000 * repeats;
  fmt::print("(a) empty run_workers call, {} calls each timed alone: microseconds per call\n", calls);
  fmt::print("{:>8} {:>10} {:>10} {:>10}\n", "workers", "median", "fastest", "mean");
  for (unsigned workers : worker_counts(std::max(8u, cpus))) {
    const CallSpread s = per_call(calls, [&] { run_workers(workers, [](unsigned) {}); });
    fmt::print("{:>8} {:>10.2f} {:>10.2f} {:>10.2f}\n", workers, s.spread.median, s.spread.fastest, s.mean);
  }
}

// (b) The same integer work in kChunks chunks, claimed one at a time, at 1..2N workers.
void cpu_scaling(unsigned repeats, unsigned cpus) {
  constexpr uint64_t kChunks = 64, kStepsPerChunk = 1'000'000;
  fmt::print("\n(b) {} chunks of {} xorshift steps claimed from a WorkQueue: milliseconds per job\n", kChunks,
             kStepsPerChunk);
  fmt::print("{:>8} {:>10} {:>10} {:>9}\n", "workers", "median", "fastest", "speed-up");
  double one_worker = 0;
  for (unsigned workers : worker_counts(2 * cpus)) {
    std::vector<uint64_t> sums(workers);
    const Spread s = timed(repeats, 1e-3, [&] {
      WorkQueue queue;
      queue.total = kChunks;
      run_workers(workers, [&](unsigned w) {
        for (auto [item, end] = queue.claim(1); item < end; std::tie(item, end) = queue.claim(1))
          sums[w] += integer_work(item, kStepsPerChunk);
      });
    });
    for (uint64_t sum : sums) result_sink = result_sink + sum;
    if (workers == 1) one_worker = s.median;
    fmt::print("{:>8} {:>10.2f} {:>10.2f} {:>9.2f}\n", workers, s.median, s.fastest, one_worker / s.median);
  }
}

// (c) Small items: every item of a WorkQueue claimed alone (the claim's own cost), and split_batch over a
// vectorised step's few environments, called step after step.
void small_items(unsigned repeats, unsigned cpus) {
  constexpr uint64_t kItems = 1'000'000, kItemSteps = 20;
  fmt::print("\n(c1) {} items of {} xorshift steps, each claimed alone: nanoseconds per item\n", kItems, kItemSteps);
  fmt::print("{:>8} {:>10} {:>10}\n", "workers", "median", "fastest");
  for (unsigned workers : worker_counts(cpus)) {
    std::vector<uint64_t> sums(workers);
    const Spread s = timed(repeats, kItems / 1e9, [&] {
      WorkQueue queue;
      queue.total = kItems;
      run_workers(workers, [&](unsigned w) {
        for (auto [item, end] = queue.claim(1); item < end; std::tie(item, end) = queue.claim(1))
          sums[w] += integer_work(item, kItemSteps);
      });
    });
    for (uint64_t sum : sums) result_sink = result_sink + sum;
    fmt::print("{:>8} {:>10.1f} {:>10.1f}\n", workers, s.median, s.fastest);
  }

  const unsigned steps = 2000 * repeats;
  constexpr size_t kEnvironments = 64;
  for (uint64_t env_steps : {uint64_t{200}, uint64_t{2000}}) {
    fmt::print("\n(c2) split_batch over {} environments of {} xorshift steps, {} steps each timed alone: "
               "microseconds per step\n",
               kEnvironments, env_steps, steps);
    fmt::print("{:>8} {:>10} {:>10} {:>10}\n", "threads", "median", "fastest", "mean");
    for (unsigned threads : worker_counts(cpus)) {
      std::vector<uint64_t> state(kEnvironments);
      const CallSpread s = per_call(steps, [&] {
        split_batch(threads, kEnvironments, 1,
                    [&](unsigned, size_t e) { state[e] = integer_work(state[e] + e, env_steps); });
      });
      for (uint64_t value : state) result_sink = result_sink + value;
      fmt::print("{:>8} {:>10.2f} {:>10.2f} {:>10.2f}\n", threads, s.spread.median, s.spread.fastest, s.mean);
    }
  }
}

unsigned repeats_from(int argc, char** argv) {
  if (argc < 2) return 7;
  const std::string text = argv[1];
  char* end = nullptr;
  const unsigned long repeats = std::strtoul(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || repeats == 0 || repeats > 1000)
    throw std::invalid_argument(fmt::format("REPEATS must be a whole number from 1 to 1000, got '{}'", text));
  return static_cast<unsigned>(repeats);
}

} // namespace

int main(int argc, char** argv) {
  try {
    const unsigned repeats = repeats_from(argc, argv);
    const unsigned cpus = available_cpu_threads();
    fmt::print("worker_pool_bench: {} hardware threads, {} repeats\n\n", cpus, repeats);
    empty_calls(repeats, cpus);
    cpu_scaling(repeats, cpus);
    small_items(repeats, cpus);
  } catch (const std::exception& e) {
    fmt::print(stderr, "worker_pool_bench: {}\n", e.what());
    return 1;
  }
  return 0;
}
