// worker_pool.cpp - run_workers on a persistent pool of threads that grows on demand.
//
// Written here rather than taken from TBB (libtbb-dev): Debian ships TBB as a shared library only while gsdk
// links static archives where it can; and TBB runs a job's tasks on however many threads its arena has,
// which is the right model for tasks that never wait for one another but not for run_workers' promise that
// every worker index has a thread of its own at once (a caller may synchronise its workers; a nested call
// must not wait for threads its own callers hold). That promise is met here by never queueing: a call takes
// idle threads or starts new ones, so the pool keeps as many threads as were ever busy at once.
//
// A thread that fork() leaves behind does not exist in the child, and the child may find the pool's mutex
// held by a thread that no longer runs; so the child abandons the parent's pool and starts an empty one.
#include "gsdk/core/runtime/worker_pool.hpp"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <fmt/core.h>

namespace gsdk::core {
namespace {

// One call's body and its first exception; lives on the caller's stack until every worker has finished.
class Job {
public:
  explicit Job(const std::function<void(unsigned)>& body) : body_(body) {}

  void run(unsigned worker) noexcept {
    try {
      body_(worker);
    } catch (...) {
      std::lock_guard lock(error_mutex_);
      if (!first_error_) first_error_ = std::current_exception();
    }
  }

  void rethrow_first_error() const {
    if (first_error_) std::rethrow_exception(first_error_);
  }

private:
  const std::function<void(unsigned)>& body_;
  std::mutex error_mutex_;
  std::exception_ptr first_error_;
};

// A kept thread and the one worker it is given at a time. Never destroyed: its thread waits on it until exit.
class PoolThread {
public:
  void assign(Job& job, unsigned worker) {
    {
      std::lock_guard lock(mutex_);
      job_ = &job;
      worker_ = worker;
    }
    changed_.notify_one();
  }

  void wait_until_finished() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return job_ == nullptr; });
  }

  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return job_ != nullptr; });
      Job* const job = job_;
      const unsigned worker = worker_;
      lock.unlock();
      job->run(worker);
      lock.lock();
      job_ = nullptr;
      changed_.notify_one();
    }
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_; // the assigner and the thread wait on it in turn, never both at once
  Job* job_ = nullptr;              // null while idle
  unsigned worker_ = 0;
};

// Enough inline room for the worker counts of one machine's cores without an allocation per call.
using Helpers = boost::container::small_vector<PoolThread*, 15>;

class Pool {
public:
  // `count` threads for one call's exclusive use: idle ones, most recently used first, then new ones.
  Helpers acquire(unsigned count) {
    Helpers helpers;
    {
      std::lock_guard lock(mutex_);
      while (helpers.size() < count && !idle_.empty()) {
        helpers.push_back(idle_.back());
        idle_.pop_back();
      }
    }
    try {
      while (helpers.size() < count) helpers.push_back(start_thread());
    } catch (const std::system_error& e) {
      release(helpers);
      throw std::runtime_error(fmt::format("run_workers: could not start thread {} of the {} asked for: {}",
                                           helpers.size() + 1, count, e.what()));
    } catch (...) {
      release(helpers);
      throw;
    }
    return helpers;
  }

  void release(const Helpers& helpers) {
    std::lock_guard lock(mutex_);
    idle_.insert(idle_.end(), helpers.begin(), helpers.end());
  }

private:
  PoolThread* start_thread() {
    PoolThread* thread = nullptr;
    {
      std::lock_guard lock(mutex_);
      threads_.push_back(std::make_unique<PoolThread>());
      thread = threads_.back().get();
    }
    // Detached: the thread outlives every call and ends with the process. If it cannot start, its idle
    // PoolThread stays in threads_, never handed out.
    std::thread([thread] { thread->serve(); }).detach();
    return thread;
  }

  std::mutex mutex_;
  std::vector<PoolThread*> idle_;
  std::vector<std::unique_ptr<PoolThread>> threads_;
};

// Pools are made with new and never deleted: their threads wait on them until the process ends, even while
// static destructors run.
std::atomic<Pool*> current_pool{nullptr};

void start_empty_pool_in_child() {
  current_pool.store(new Pool, std::memory_order_release);
}

Pool& pool() {
  static const bool made = [] {
    current_pool.store(new Pool, std::memory_order_release);
    if (const int error = pthread_atfork(nullptr, nullptr, start_empty_pool_in_child); error != 0)
      throw std::system_error(error, std::generic_category(), "run_workers: pthread_atfork");
    return true;
  }();
  static_cast<void>(made);
  return *current_pool.load(std::memory_order_acquire);
}

} // namespace

void run_workers(unsigned workers, const std::function<void(unsigned)>& body) {
  if (!body) throw std::invalid_argument(fmt::format("run_workers: no body given for {} workers", workers));
  if (workers == 0) return;
  Job job(body);
  Pool& threads = pool();
  const Helpers helpers = threads.acquire(workers - 1);
  for (unsigned w = 1; w < workers; ++w) helpers[w - 1]->assign(job, w);
  job.run(0);
  for (PoolThread* helper : helpers) helper->wait_until_finished();
  threads.release(helpers);
  job.rethrow_first_error();
}

unsigned available_cpu_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

} // namespace gsdk::core
