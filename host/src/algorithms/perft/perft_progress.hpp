// perft_progress.hpp - the "progress" of a perft checkpoint (checkpoint_file.hpp: `gsdk run` of [perft], one per
// position, and `gsdk perft --checkpoint`), as JSON and back: the core's record of the subtrees counted so far.
//
//   {"split_target", "distinct", "subtrees", "counted": [[subtree id, "leaves"], ...]}  (leaves in decimal: they are
//    128-bit; "distinct": the root's expansion merged equal states, as a hashed count's does; absent, as before
//    hashed perft, is false)
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gsdk/core/perft/perft.hpp"

namespace gsdk::host {

nlohmann::json perft_progress_json(const core::PerftProgress& progress);
// Throws CheckpointMismatch naming `file` for a progress that is malformed; the core checks that it fits the job.
core::PerftProgress perft_progress_from_json(const nlohmann::json& progress, const std::string& file);

// The progress of two disjoint parts of one count, merged as one process would have counted both
// (Algorithm::merge_progress). Throws CheckpointMismatch naming `where` when they share a subtree or do not fit
// together (another cut of the root, one part hashed and the other not).
nlohmann::json merge_perft_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);

} // namespace gsdk::host
