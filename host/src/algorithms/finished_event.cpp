// finished_event.cpp - see finished_event.hpp.
#include "algorithms/finished_event.hpp"

namespace gsdk::host {

void finish_events(OutputStream& events, AlgorithmOutcome& outcome) {
  events.write_line(
      nlohmann::json{{"event", "finished"}, {"status", outcome.status()}, {"digest", outcome.digest()}}.dump());
  try {
    events.close();
  } catch (const OutputError& e) {
    outcome.add_failure(e.what());
  }
}

} // namespace gsdk::host
