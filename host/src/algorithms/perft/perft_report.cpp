// perft_report.cpp - text and JSON forms of perft outcomes.
#include "algorithms/perft/perft_report.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace gsdk::host {

double nodes_per_second(const core::PerftOutcome& outcome) {
  return outcome.wall_seconds > 0 ? static_cast<double>(outcome.leaves) / outcome.wall_seconds : 0.0;
}

namespace {

nlohmann::json table_json(const core::PerftTableStats& t) {
  return {{"bytes", t.bytes}, {"slots", t.slots},   {"filled", t.filled},
          {"probes", t.probes}, {"hits", t.hits}, {"stores", t.stores}};
}

core::PerftTableStats table_from_json(const nlohmann::json& j) {
  return {.bytes = j.at("bytes").get<uint64_t>(),
          .slots = j.at("slots").get<uint64_t>(),
          .filled = j.at("filled").get<uint64_t>(),
          .probes = j.at("probes").get<uint64_t>(),
          .hits = j.at("hits").get<uint64_t>(),
          .stores = j.at("stores").get<uint64_t>()};
}

void add_table(core::PerftTableStats& total, const core::PerftTableStats& more) {
  total.bytes = std::max(total.bytes, more.bytes);
  total.slots += more.slots;
  total.filled += more.filled;
  total.probes += more.probes;
  total.hits += more.hits;
  total.stores += more.stores;
}

double percent(uint64_t part, uint64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// 512 KiB, 64 MiB, 1.5 GiB.
std::string memory_size(uint64_t bytes) {
  constexpr uint64_t kKib = 1024, kMib = kKib << 10, kGib = kMib << 10;
  if (bytes >= kGib) return fmt::format("{:.3g} GiB", static_cast<double>(bytes) / kGib);
  if (bytes >= kMib) return fmt::format("{:.3g} MiB", static_cast<double>(bytes) / kMib);
  return fmt::format("{:.3g} KiB", static_cast<double>(bytes) / kKib);
}

// "CPU table 64 MiB, 12.5% full, 4100 probes, 36.1% hits", or "" for a table that was not used.
std::string table_line(const char* what, const core::PerftTableStats& t) {
  if (t.bytes == 0 && t.probes == 0) return "";
  return fmt::format("{} {}, {:.1f}% full, {} probes, {:.1f}% hits; ", what, memory_size(t.bytes),
                     percent(t.filled, t.slots), t.probes, percent(t.hits, t.probes));
}

} // namespace

nlohmann::json perft_hash_json(const core::PerftHashStats& stats) {
  return {{"enabled", stats.enabled},
          {"paths", stats.paths},
          {"subtrees", stats.subtrees},
          {"host", table_json(stats.host)},
          {"device", table_json(stats.device)},
          {"frontier_states", stats.frontier_states},
          {"duplicates", stats.duplicates}};
}

core::PerftHashStats perft_hash_from_json(const nlohmann::json& hash) {
  return {.enabled = hash.at("enabled").get<bool>(),
          .paths = hash.at("paths").get<uint64_t>(),
          .subtrees = hash.at("subtrees").get<uint64_t>(),
          .host = table_from_json(hash.at("host")),
          .device = table_from_json(hash.at("device")),
          .frontier_states = hash.at("frontier_states").get<uint64_t>(),
          .duplicates = hash.at("duplicates").get<uint64_t>()};
}

void add_perft_hash(core::PerftHashStats& total, const core::PerftHashStats& more) {
  total.enabled = total.enabled || more.enabled;
  total.paths += more.paths;
  total.subtrees += more.subtrees;
  add_table(total.host, more.host);
  add_table(total.device, more.device);
  total.frontier_states += more.frontier_states;
  total.duplicates += more.duplicates;
}

std::string perft_hash_line(const core::PerftHashStats& stats) {
  std::string line = table_line("CPU table", stats.host) + table_line("GPU tables", stats.device) +
                     fmt::format("{} distinct subtrees of {} paths", stats.subtrees, stats.paths);
  if (stats.frontier_states > 0)
    line += fmt::format("; {} of {} GPU frontier states were duplicates", stats.duplicates, stats.frontier_states);
  return line;
}

nlohmann::json perft_json(const core::PerftOutcome& outcome, bool divide, bool hashed) {
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
  if (hashed) j["hash"] = perft_hash_json(outcome.hash);
  if (!divide) return j;
  j["divide"] = nlohmann::json::array();
  for (const auto& m : outcome.divide) j["divide"].push_back({{"move", m.text}, {"leaves", core::to_string(m.leaves)}});
  return j;
}

void print_perft(const core::PerftOutcome& outcome, bool divide, bool hashed, const std::string& devices) {
  if (divide) {
    for (const auto& m : outcome.divide) std::printf("%s: %s\n", m.text.c_str(), core::to_string(m.leaves).c_str());
    std::printf("\n");
  }
  std::printf("Nodes searched: %s\n", core::to_string(outcome.leaves).c_str());
  std::printf("Time: %.3f s\n", outcome.wall_seconds);
  if (outcome.startup_seconds > 0) std::printf("GPU start-up: %.3f s (before Time)\n", outcome.startup_seconds);
  std::printf("Speed: %.0f nodes/s\n", nodes_per_second(outcome));
  std::printf("Engine: %s (%s)\n", outcome.engine.c_str(), devices.c_str());
  if (hashed) std::printf("Hash: %s\n", perft_hash_line(outcome.hash).c_str());
}

} // namespace gsdk::host
