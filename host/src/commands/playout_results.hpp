// playout_results.hpp - a playouts results file as `gsdk replay` reads it: every field it uses checked for
// its type and range (an error names the field by its JSON pointer, the value and what was expected,
// never a silent conversion), and the claims the file makes about itself that can be recomputed without
// running the playouts again (its digest, histogram, moments and status).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gsdk/core/playouts/playout_result.hpp"

namespace gsdk::host {

// A results file that is not a playouts results file or holds a value of the wrong type or range.
struct ResultsFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct StoredPlayouts {
  std::string game;
  std::string plugin_version;
  std::string plugin_path; // the plugin file the run loaded (/game/plugin/path), empty when the file has none
  std::string gsdk_version;
  nlohmann::json params; // an object, as the run resolved them
  uint64_t seed = 0;
  std::string engine; // "batch" or "generic"
  std::optional<std::string> start_state;
  std::string status;
  std::string digest;
  std::optional<double> configured_count; // [playouts] count of the stored config, when there
  core::PlayoutResult result{0, 0};
  double mean = 0, variance = 0;
};

// Reads `doc` (from `path`, for messages); throws ResultsFileError.
StoredPlayouts read_playout_results(const nlohmann::json& doc, const std::string& path);

// What the file claims about itself that its own numbers contradict, one sentence each (none: consistent).
std::vector<std::string> self_contradictions(const StoredPlayouts& stored);

} // namespace gsdk::host
