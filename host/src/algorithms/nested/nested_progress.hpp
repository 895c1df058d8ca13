// nested_progress.hpp - the "progress" of an NMCS, NRPA or beam search run's checkpoint (checkpoint_file.hpp), as
// JSON and back: the core's record of the searches that ended and of the run as it stood (nested_search.hpp's
// NestedSearchProgress), with what the run around the searches had written of them, so that a resumed run's
// improvements log and searches file tell the whole story once:
//
//   {"finished": {"below": n, "above": [search, ...]},   every search below n ended, and those listed
//    "under_way": [{"search", "played", "best", "counter", "iteration", "policy"}, ...],  searches at the start of
//                  their top level's step (NMCS: "played", the moves chosen) or iteration (NRPA: "iteration",
//                  "policy"), "best" their top level's best ({"score", "moves"} or null), "counter" what keys
//                  their streams to come (nested_search.hpp's SearchUnderWay)
//    "best": {"score", "search", "moves"} or null,       the run's best so far and the search that found it
//    "counts": {"playouts", "level1_steps", "level1_searches", "batches", "beam_children", "beam_duplicates",
//               "beam_capped", "evaluator_seconds", "wall_seconds"},   (the beam's three may be absent: 0)
//    "improvements": [{"seconds", "score", "search"}, ...],     the improvements logged so far
//    "searches": [{"score", "search", "start", "moves"}, ...]}  NMCS's [output] searches table so far
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/nested/best_searches.hpp"
#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::host {

// An improvement of a run's best score, as its events file logs it.
struct LoggedImprovement {
  double seconds;
  int64_t score;
  uint32_t search;
};

struct NestedCheckpoint {
  core::NestedSearchProgress search;
  std::vector<LoggedImprovement> improvements;
  std::vector<BestSearches::Entry> searches;
};

nlohmann::json nested_progress_json(const core::NestedSearchProgress& search,
                                    const std::vector<LoggedImprovement>& improvements,
                                    const std::vector<BestSearches::Entry>& searches);
// Throws CheckpointMismatch naming `file` for a progress that is malformed or holds a search beyond the run's
// `searches` (restarts + 1).
NestedCheckpoint nested_progress_from_json(const nlohmann::json& progress, uint64_t searches, const std::string& file);

// The progress of two parts of one run (disjoint sets of searches, Algorithm::merge_progress), merged as one run
// that held both: the searches finished and under way of both; the better best (the higher score, then the lower
// search, as one run's record breaks ties); counts added up, but wall_seconds the longer part's, since parts run
// at once and a time limit bounds each part (so a merged run whose part ran out of time starts nothing); the
// improvements of both on that shared clock, those that raised the best of both; the searches tables of both (the
// run that resumes the merge keeps the best of them, as one table fed every search would). Throws
// CheckpointMismatch naming `where` when a search is in both or either is malformed.
nlohmann::json merge_nested_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where);

} // namespace gsdk::host
