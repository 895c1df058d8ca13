// qlearning_progress.hpp - the "progress" of a Q-learning checkpoint (checkpoint_file.hpp), as JSON and back:
// the training runs of the experiment that finished (a sweep has several), and the one under way as the core
// left it at a chunk boundary (core::QLearningProgress):
//
//   {"finished": [{"entry", "environments", "digest", "engine", "device", "episodes": [[successes, failures, steps,
//                  agent_steps, agent_starts], ...], "test": [same five], "reach": [[starts, reachable,
//                  reached], ...], "wall_seconds", "device_milliseconds"}, ...],
//    "training": null, or {"environments", "episodes": [[...], ...], "tables": "base64", "visits": [...],
//                          "wall_seconds", "device_milliseconds"}}
//
// "entry" is the run's place in the sweep (a part of a sweep spread over processes finishes some of them; a
// checkpoint saved before runs had one lists them in order from the first).
// "tables" holds the Q-values' IEEE-754 binary32 bits, four little-endian bytes each, in base64: exact by
// construction, and a third above the bytes themselves (a decimal number per value would be three times
// larger and slower to read and write, and the tables of a large sweep run to hundreds of megabytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gsdk/core/qlearning/qlearning.hpp"

namespace gsdk::host {

// One training run of a Q-learning experiment (one entry of a sweep); its tables are dropped once it finished.
struct QLearningRun {
  uint32_t entry = 0; // its place in the sweep (0 without one)
  uint32_t environments = 0;
  core::QLearningOutcome outcome;
  std::string digest;
};

struct QLearningCheckpoint {
  std::vector<QLearningRun> finished;
  uint32_t training_environments = 0; // of the run under way, when there is one
  // What the run under way has trained: the lowest entry of the sweep (of the run's part, when it is spread over
  // processes) that has not finished.
  std::optional<core::QLearningProgress> training;
};

// `training`: the run under way (of `environments`), or null when none is.
nlohmann::json qlearning_progress_json(const std::vector<QLearningRun>& finished, uint32_t environments,
                                       const core::QLearningProgress* training);
// Throws CheckpointMismatch naming `file` for a progress that is malformed; the driver and the core check that
// it fits the run.
QLearningCheckpoint qlearning_progress_from_json(const nlohmann::json& progress, const std::string& file);

// The progress of two parts of one sweep (Algorithm::merge_progress): the finished training runs of both, by entry.
// Throws CheckpointMismatch naming `where` when an entry is in both, a part has a training run under way (a part
// that completed has none) or a progress is malformed.
nlohmann::json merge_qlearning_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);

// The tables' encoding above, exposed for its test.
std::string encode_float_bits(const std::vector<float>& values);
// Throws std::invalid_argument for text that is not base64 of a whole number of values.
std::vector<float> decode_float_bits(const std::string& text);

} // namespace gsdk::host
