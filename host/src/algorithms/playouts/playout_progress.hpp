// playout_progress.hpp - the "progress" of a playouts checkpoint (checkpoint_file.hpp), as JSON and back: the
// core's record of the playouts completed and their merged result.
//
//   {"completed": [[first, end], ...], "result": {"playouts", "score_min", "histogram": [...],
//    "best": {"score", "playout"}, "worst": {"score", "playout"}, "device_milliseconds"}}
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gsdk/core/playouts/playouts.hpp"

namespace gsdk::host {

nlohmann::json playout_progress_json(const core::PlayoutProgress& progress);
// Throws CheckpointMismatch naming `file` for a progress that is malformed; the core checks that it fits the job.
core::PlayoutProgress playout_progress_from_json(const nlohmann::json& progress, const std::string& file);

// The progress of two disjoint parts of one run, merged as one process would have completed both
// (Algorithm::merge_progress). Throws CheckpointMismatch naming `where` when they share a playout or do not fit
// together (other histogram bins).
nlohmann::json merge_playout_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);

} // namespace gsdk::host
