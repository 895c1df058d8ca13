// interruptible_call.hpp - a long computation called from Python: it runs without the GIL, and Ctrl-C
// (KeyboardInterrupt) raises its stop request, as SIGINT does for the CLI (host/src/signals/).
#pragma once

#include <functional>

#include "gsdk/core/runtime/stop_request.hpp"

namespace gsdk::python {

// Runs `work` on a thread of its own while this thread, the caller's, releases the GIL and lets Python look at its
// signals every few milliseconds. A signal handler that raises (KeyboardInterrupt) raises `stop` instead; `work`
// then returns what completed, and the handler's exception is thrown as pybind11::error_already_set. An exception
// of `work` is rethrown here.
void call_interruptibly(const std::function<void()>& work, core::StopRequest& stop);

} // namespace gsdk::python
