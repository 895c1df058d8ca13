// progress_monitor.cpp - the periodic progress thread shared by the playout and perft schedulers.
#include "gsdk/core/runtime/progress_monitor.hpp"

#include <chrono>
#include <utility>

namespace gsdk::core {

ProgressMonitor::ProgressMonitor(std::function<void()> report) : report_(std::move(report)) {
  if (!report_) return;
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopped_cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopped_; })) report_();
  });
}

ProgressMonitor::~ProgressMonitor() {
  stop();
}

void ProgressMonitor::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  stopped_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (report_) report_();
}

} // namespace gsdk::core
