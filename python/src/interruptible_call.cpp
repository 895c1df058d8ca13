// interruptible_call.cpp - Python runs its signal handlers on the main thread when that thread holds the GIL, so the
// caller's thread waits for the work in short slices, taking the GIL between them to run the handlers.
#include "interruptible_call.hpp"

#include <chrono>
#include <exception>
#include <future>
#include <optional>

#include <pybind11/pybind11.h>

namespace gsdk::python {

namespace py = pybind11;

void call_interruptibly(const std::function<void()>& work, core::StopRequest& stop) {
  // A slice short enough that Ctrl-C feels immediate, long enough that waiting costs nothing measurable.
  constexpr auto kSlice = std::chrono::milliseconds(20);
  std::future<void> done;
  {
    py::gil_scoped_release without_gil;
    done = std::async(std::launch::async, work);
  }
  std::optional<py::error_already_set> interrupted;
  for (;;) {
    bool finished = false;
    {
      py::gil_scoped_release without_gil;
      finished = done.wait_for(kSlice) == std::future_status::ready;
    }
    if (finished) break;
    if (!interrupted && PyErr_CheckSignals() != 0) {
      interrupted.emplace();
      stop.request();
    }
  }
  if (interrupted) throw std::move(*interrupted);
  done.get();
}

} // namespace gsdk::python
