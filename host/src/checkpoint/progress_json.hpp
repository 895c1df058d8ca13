// progress_json.hpp - the "progress" of a checkpoint file (checkpoint_file.hpp) for each algorithm that has
// checkpoints: the core's record of completed work items and their merged result, as JSON and back.
//
//   playouts: {"completed": [[first, end], ...], "result": {"playouts", "score_min", "histogram": [...],
//              "best": {"score", "playout"}, "worst": {"score", "playout"}, "device_milliseconds"}}
//   perft:    {"split_target", "distinct", "subtrees", "counted": [[subtree id, "leaves"], ...]}  (leaves in
//              decimal: they are 128-bit; "distinct": the root's expansion merged equal states, as a hashed count's
//              does; absent, as before hashed perft, is false)
//   qlearning: qlearning_progress.hpp
//   match:    {"games": [each finished game: round, sides, score, moves, agents' tallies]}  (match_progress.hpp)
//   nmcs, nrpa: nested_progress.hpp
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/playouts/playouts.hpp"

namespace gsdk::host {

nlohmann::json playout_progress_json(const core::PlayoutProgress& progress);
// Throws CheckpointMismatch naming `file` for a progress that is malformed; the core checks that it fits the job.
core::PlayoutProgress playout_progress_from_json(const nlohmann::json& progress, const std::string& file);

nlohmann::json perft_progress_json(const core::PerftProgress& progress);
core::PerftProgress perft_progress_from_json(const nlohmann::json& progress, const std::string& file);

// The progress of two disjoint parts of one run, merged as one process would have completed both
// (Algorithm::merge_progress). Throws CheckpointMismatch naming `where` when they share a work item or do not fit
// together (other histogram bins, another cut of the perft root, one perft part hashed and the other not).
nlohmann::json merge_playout_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);
nlohmann::json merge_perft_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);

} // namespace gsdk::host
