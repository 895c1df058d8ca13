// progress_monitor.hpp - calls a progress report about ten times a second from its own thread while a
// parallel job runs, and once more, from the caller's thread, when it is stopped.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gsdk::core {

class ProgressMonitor {
public:
  // An empty report starts no thread.
  explicit ProgressMonitor(std::function<void()> report);
  ~ProgressMonitor();
  ProgressMonitor(const ProgressMonitor&) = delete;
  ProgressMonitor& operator=(const ProgressMonitor&) = delete;

  // Stops the thread and reports the final state; later calls do nothing.
  void stop();

private:
  std::function<void()> report_;
  std::mutex mutex_;
  std::condition_variable stopped_cv_;
  bool stopped_ = false;
  std::thread thread_;
};

} // namespace gsdk::core
