// worker_pool_test.cpp - run_workers' contract: every index once, each on its own thread and all at once, the
// caller as worker 0, the first exception after all finish, threads kept between calls, nested calls, calls
// from several threads at once, and a fork() after the pool was used.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::core {
namespace {

// A barrier that gives up: wait() is true once `parties` threads have arrived, false if they have not within
// the limit, so a pool that ran the workers one after another fails the test instead of hanging it.
class TimedBarrier {
public:
  explicit TimedBarrier(unsigned parties) : parties_(parties) {}

  bool wait() {
    std::unique_lock lock(mutex_);
    if (++arrived_ == parties_) all_arrived_.notify_all();
    return all_arrived_.wait_for(lock, std::chrono::seconds(30), [this] { return arrived_ >= parties_; });
  }

private:
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  const unsigned parties_;
  unsigned arrived_ = 0;
};

// Runs `workers` workers that all wait for one another; the thread each index ran on.
std::vector<std::thread::id> run_together(unsigned workers) {
  std::vector<std::thread::id> ran_on(workers);
  std::vector<int> met(workers, 0);
  TimedBarrier barrier(workers);
  run_workers(workers, [&](unsigned w) {
    ran_on[w] = std::this_thread::get_id();
    met[w] = barrier.wait() ? 1 : 0;
  });
  EXPECT_EQ(std::count(met.begin(), met.end(), 1), workers) << "workers of one call did not all run at once";
  return ran_on;
}

TEST(WorkerPool, EveryIndexRunsOnceOnItsOwnThreadAllAtOnce) {
  // More workers than this machine's cores: the pool must start threads, not queue the indices.
  const unsigned workers = 4 * available_cpu_threads() + 3;
  const std::vector<std::thread::id> ran_on = run_together(workers);
  EXPECT_EQ(ran_on[0], std::this_thread::get_id()) << "the caller runs worker 0";
  EXPECT_EQ(std::set(ran_on.begin(), ran_on.end()).size(), workers);
}

TEST(WorkerPool, KeepsItsThreadsForTheNextCall) {
  const std::vector<std::thread::id> first = run_together(4), second = run_together(4);
  EXPECT_EQ(std::set(first.begin() + 1, first.end()), std::set(second.begin() + 1, second.end()));
}

TEST(WorkerPool, NoWorkersRunsNothingAndOneRunsOnTheCaller) {
  int calls = 0;
  run_workers(0, [&](unsigned) { ++calls; });
  EXPECT_EQ(calls, 0);
  std::thread::id ran_on;
  run_workers(1, [&](unsigned) { ran_on = std::this_thread::get_id(); });
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(WorkerPool, RefusesAnEmptyBody) {
  try {
    run_workers(3, std::function<void(unsigned)>());
    FAIL() << "an empty body was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no body given for 3 workers"), std::string::npos) << e.what();
  }
}

// The exit status of a child process that ran `check`, which returns the status to exit with; a child that
// hangs is ended by an alarm after a minute, so the test fails instead of waiting for it.
int status_of_child(const std::function<int()>& check) {
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    alarm(60);
    _exit(check());
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(WorkerPool, SaysSoWhenAThreadCannotStartAndRunsNoWorker) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's shadow memory does not live within an address-space limit";
#else
  // glibc gives a child the stacks of its parent's threads to reuse, as many as the parent had; once the child's
  // pool holds them all, an address-space limit just above what it maps leaves no room for another stack.
  const auto parent_threads = static_cast<unsigned>(
      std::distance(std::filesystem::directory_iterator("/proc/self/task"), std::filesystem::directory_iterator()));
  const unsigned kept = parent_threads + 1;
  const int status = status_of_child([kept] {
    run_workers(kept + 1, [](unsigned) {});
    std::ifstream statm("/proc/self/statm");
    unsigned long pages = 0;
    if (!(statm >> pages)) return 2;
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = pages * static_cast<unsigned long>(sysconf(_SC_PAGESIZE)) + (2ul << 20);
    if (setrlimit(RLIMIT_AS, &limit) != 0) return 3;
    std::atomic<unsigned> ran{0};
    try {
      run_workers(kept + 3, [&](unsigned) { ++ran; });
      return 5;
    } catch (const std::runtime_error& e) {
      const std::string expected =
          "could not start thread " + std::to_string(kept + 1) + " of the " + std::to_string(kept + 2) + " asked for";
      if (std::string(e.what()).find(expected) == std::string::npos || ran != 0) return 4;
    }
    // The threads it did have are idle again.
    run_workers(kept + 1, [&](unsigned) { ++ran; });
    return ran == kept + 1 ? 0 : 6;
  });
  EXPECT_EQ(status, 0) << "2: no statm, 3: no limit, 4: wrong message or a worker ran, 5: no error, "
                          "6: the pool lost threads";
#endif
}

TEST(WorkerPool, RethrowsTheExceptionOnceEveryWorkerHasFinished) {
  constexpr unsigned kWorkers = 6, kThrower = 2;
  std::atomic<bool> thrown{false};
  std::atomic<unsigned> finished{0};
  try {
    run_workers(kWorkers, [&](unsigned w) {
      if (w == kThrower) {
        thrown = true;
        throw std::runtime_error("worker 2 failed");
      }
      // The others finish only after the throw, so a call that returned at the throw would see them unfinished.
      while (!thrown) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++finished;
    });
    FAIL() << "the worker's exception was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "worker 2 failed");
    EXPECT_EQ(finished.load(), kWorkers - 1);
  }
  // The pool is still whole after a failure.
  EXPECT_EQ(run_together(kWorkers).size(), kWorkers);
}

TEST(WorkerPool, NestedCallsFromInsideWorkersDoNotDeadlock) {
  constexpr unsigned kOuter = 4, kInner = 3;
  std::mutex mutex;
  std::set<std::pair<unsigned, unsigned>> ran;
  TimedBarrier outer_barrier(kOuter);
  std::atomic<unsigned> outer_met{0};
  run_workers(kOuter, [&](unsigned outer) {
    // Every outer worker holds its thread while its inner workers, which need threads too, wait for one another.
    TimedBarrier inner_barrier(kInner);
    run_workers(kInner, [&](unsigned inner) {
      EXPECT_TRUE(inner_barrier.wait()) << "inner workers of outer worker " << outer << " did not run at once";
      std::lock_guard lock(mutex);
      ran.insert({outer, inner});
    });
    if (outer_barrier.wait()) ++outer_met;
  });
  EXPECT_EQ(ran.size(), kOuter * kInner);
  EXPECT_EQ(outer_met.load(), kOuter);
}

TEST(WorkerPool, CallsFromSeveralThreadsAtOnce) {
  constexpr unsigned kCallers = 4, kCalls = 300, kWorkers = 3;
  std::vector<std::vector<unsigned>> runs(kCallers, std::vector<unsigned>(kWorkers, 0));
  std::vector<std::thread> callers;
  for (unsigned c = 0; c < kCallers; ++c)
    callers.emplace_back([&runs, c] {
      for (unsigned call = 0; call < kCalls; ++call) run_workers(kWorkers, [&](unsigned w) { ++runs[c][w]; });
    });
  for (std::thread& caller : callers) caller.join();
  for (unsigned c = 0; c < kCallers; ++c) EXPECT_EQ(runs[c], std::vector<unsigned>(kWorkers, kCalls)) << "caller " << c;
}

TEST(WorkerPool, AChildProcessCanRunWorkersAfterThePoolWasUsed) {
  run_together(4); // the parent's pool now has idle threads, which fork() does not copy
  const int status = status_of_child([] {
    std::atomic<unsigned> met{0};
    TimedBarrier barrier(4);
    run_workers(4, [&](unsigned) {
      if (barrier.wait()) ++met;
    });
    return met == 4 ? 0 : 1;
  });
  EXPECT_EQ(status, 0) << "1: the child's workers did not all run; 142: it hung (SIGALRM)";
  EXPECT_EQ(run_together(4).size(), 4u) << "the parent's pool after the fork";
}

} // namespace
} // namespace gsdk::core
