// perft_report.cpp - text and JSON forms of perft outcomes.
#include "perft_report.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace gsdk::host {

double nodes_per_second(const core::PerftOutcome& outcome) {
  return outcome.wall_seconds > 0 ? static_cast<double>(outcome.leaves) / outcome.wall_seconds : 0.0;
}

nlohmann::json perft_json(const core::PerftOutcome& outcome, bool divide) {
  nlohmann::json j = {{"leaves", core::to_string(outcome.leaves)},
                      {"status", outcome.error.empty() ? "complete" : "incomplete"},
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

void print_perft_table(const nlohmann::json& results, const std::string& out_path) {
  const auto& positions = results["result"]["positions"];
  std::printf("%s: perft of %s on %s\n", results["experiment"]["name"].get<std::string>().c_str(),
              results["game"]["name"].get<std::string>().c_str(), results["devices"].get<std::string>().c_str());
  int name_width = 8;
  for (const auto& p : positions) name_width = std::max(name_width, static_cast<int>(p["name"].get<std::string>().size()));
  std::printf("  %-*s %5s %20s %20s %5s %10s %12s\n", name_width, "position", "depth", "leaves", "expected", "match",
              "seconds", "nodes/s");
  for (const auto& p : positions) {
    const std::string expected = p["expected"].is_null() ? "-" : p["expected"].get<std::string>();
    const char* match = p["match"].is_null() ? "-" : p["match"].get<bool>() ? "yes" : "NO";
    std::printf("  %-*s %5u %20s %20s %5s %10.3f %12.4g%s\n", name_width, p["name"].get<std::string>().c_str(),
                p["depth"].get<unsigned>(), p["leaves"].get<std::string>().c_str(), expected.c_str(), match,
                p["seconds"].get<double>(), p["nodes_per_second"].get<double>(),
                p["status"] == "complete" ? "" : "  (incomplete)");
  }
  const auto& t = results["timings"];
  std::printf("  total %s leaves in %.3f s", results["result"]["leaves"].get<std::string>().c_str(),
              t["wall_seconds"].get<double>());
  if (t["device_milliseconds"].get<double>() > 0) std::printf(", %.3f ms in GPU kernels", t["device_milliseconds"].get<double>());
  if (t.value("startup_seconds", 0.0) > 0) std::printf(" (GPU start-up %.3f s before)", t["startup_seconds"].get<double>());
  std::printf(", %.4g nodes/s\n", t["nodes_per_second"].get<double>());
  std::printf("  digest %s\n  results %s\n", results["digest"].get<std::string>().c_str(), out_path.c_str());
}

} // namespace gsdk::host
