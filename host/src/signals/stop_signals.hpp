// stop_signals.hpp - SIGINT, SIGTERM and SIGHUP as a request to stop the running job early and keep what it
// completed. The first such signal raises the process's stop request; a second one ends the process at once
// (the default action, re-raised). Everything but raising the request - the report, the results file, the exit
// status 128 + signal - happens in the command's ordinary code once the job has returned.
#pragma once

#include <string>

#include "gsdk/core/runtime/stop_request.hpp"

namespace gsdk::host {

// Installs the handlers (again: no effect) and returns the request they raise.
const core::StopRequest& install_stop_signals();

// The signal that raised the request, 0 while none has.
int stop_signal();

// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string signal_name(int signal);

// The exit status of a run a signal ended: 128 + the signal, as a shell reports a process the signal killed.
inline int interrupted_exit_status(int signal) {
  return 128 + signal;
}

} // namespace gsdk::host
