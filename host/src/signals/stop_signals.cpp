// stop_signals.cpp - the handlers behind stop_signals.hpp. They only touch lock-free atomics and call
// sigaction/raise, which POSIX lists as async-signal-safe.
#include "signals/stop_signals.hpp"

#include <atomic>
#include <csignal>
#include <mutex>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

core::StopRequest g_stop_request;
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler may only use lock-free atomics");

void restore_default_and_raise(int signal) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  raise(signal);
}

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  // A second signal: the user means it, end now.
  if (!g_stop_signal.compare_exchange_strong(none, signal)) {
    restore_default_and_raise(signal);
    return;
  }
  g_stop_request.request();
}

} // namespace

const core::StopRequest& install_stop_signals() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    // Interrupted reads and writes go on: the run ends through the stop request, not through failed calls.
    action.sa_flags = SA_RESTART;
    for (int signal : kStopSignals) sigaction(signal, &action, nullptr);
  });
  return g_stop_request;
}

int stop_signal() {
  return g_stop_signal.load();
}

std::string signal_name(int signal) {
  switch (signal) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return fmt::format("signal {}", signal);
  }
}

} // namespace gsdk::host
