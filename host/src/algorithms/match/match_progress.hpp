// match_progress.hpp - the "progress" of a match's checkpoint file (checkpoint_file.hpp): the games finished so
// far, each with what the results file, the record and the digest need of it, as JSON and back.
//
//   match: {"games": [{"round", "a_player", "score", "moves": ["move", ...],
//                      "agents": [{"moves", "seconds", "playouts", "nodes"} of A, ... of B]}, ...]}  (by round)
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "play/match_runner.hpp"

namespace gsdk::host {

nlohmann::json match_progress_json(const std::vector<PlayedGame>& finished);

// Throws CheckpointMismatch naming `file` for a progress that is malformed or lists a round twice or beyond the
// match's `games`.
std::vector<PlayedGame> match_progress_from_json(const nlohmann::json& progress, const std::string& file,
                                                 uint32_t games);

// The progress of two parts of one match (Algorithm::merge_progress): the games of both, by round. Throws
// CheckpointMismatch naming `where` when a round is in both or a progress has no list of games with rounds (the
// run that resumes the merge checks the games themselves).
nlohmann::json merge_match_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);

} // namespace gsdk::host
