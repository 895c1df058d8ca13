// finished_event.hpp - the events file's last line, the same for every algorithm: {"event": "finished",
// status, digest}; then the file is closed, and a write that failed becomes the run's failure, not an exception.
#pragma once

#include "algorithms/algorithm.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

void finish_events(OutputStream& events, AlgorithmOutcome& outcome);

} // namespace gsdk::host
