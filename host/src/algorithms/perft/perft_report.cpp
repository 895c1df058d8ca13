// perft_report.cpp - text and JSON forms of perft outcomes.
#include "algorithms/perft/perft_report.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace gsdk::host {

double nodes_per_second(const core::PerftOutcome& outcome) {
  return outcome.wall_seconds > 0 ? static_cast<double>(outcome.leaves) / outcome.wall_seconds : 0.0;
}

nlohmann::json perft_json(const core::PerftOutcome& outcome, bool divide) {
  nlohmann::json j = {{"leaves", core::to_string(outcome.leaves)},
                      {"status", !outcome.error.empty() ? "incomplete"
                                 : outcome.stopped      ? "interrupted"
                                                        : "complete"},
                      {"engine", outcome.engine},
                      {"seconds", outcome.wall_seconds},
                      {"startup_seconds", outcome.startup_seconds},
                      {"nodes_per_second", nodes_per_second(outcome)},
                      {"cpu_leaves", core::to_string(outcome.cpu_leaves)},
                      {"cuda_leaves", core::to_string(outcome.cuda_leaves)},
                      {"device_milliseconds", outcome.device_milliseconds}};
  if (!outcome.error.empty()) j["error"] = outcome.error;
  if (!divide) return j;
  j["divide"] = nlohmann::json::array();
  for (const auto& m : outcome.divide) j["divide"].push_back({{"move", m.text}, {"leaves", core::to_string(m.leaves)}});
  return j;
}

void print_perft(const core::PerftOutcome& outcome, bool divide, const std::string& devices) {
  if (divide) {
    for (const auto& m : outcome.divide) std::printf("%s: %s\n", m.text.c_str(), core::to_string(m.leaves).c_str());
    std::printf("\n");
  }
  std::printf("Nodes searched: %s\n", core::to_string(outcome.leaves).c_str());
  std::printf("Time: %.3f s\n", outcome.wall_seconds);
  if (outcome.startup_seconds > 0) std::printf("GPU start-up: %.3f s (before Time)\n", outcome.startup_seconds);
  std::printf("Speed: %.0f nodes/s\n", nodes_per_second(outcome));
  std::printf("Engine: %s (%s)\n", outcome.engine.c_str(), devices.c_str());
}

} // namespace gsdk::host
