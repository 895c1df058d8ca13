// nested_driver.hpp - what the NMCS, NRPA and beam search drivers share: the budget keys their tables have, and the
// run around a search: every improvement checked and logged (JSON Lines events: seconds, score, search),
// the best sequence checked and saved, the report, the picture of the best score against time, the
// results fields, and the checkpoint (`--checkpoint`) that a run saves and resumes at the searches' granularity.
// The searches themselves are the core's (gsdk/core/nested/nested_search.hpp, gsdk/core/beam/beam_search.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/nested/best_searches.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::host {

// Where the searches share a key, they share its meaning and range.
std::vector<KeyDoc> budget_keys();
core::SearchBudget read_budget(const ConfigSection& section);
// The budget keys that do not change the result (searches_in_parallel): see Algorithm::keys_outside_results.
std::vector<std::string> budget_keys_outside_results();
// Algorithm::smallest_chunk of a search under `budget`: the searches it runs side by side, of all it runs.
ChunkFloor budget_chunk_floor(const core::SearchBudget& budget);
// Algorithm::parts_refusal of a search under `budget`: bounded by score, the chunks of MPI ranks would each run
// until their own searches reach it (a time bound is the job's: RunContext::deadline).
std::string budget_parts_refusal(const core::SearchBudget& budget, const std::string& table, bool ranks);

// [output] searches and searches_kept (NMCS and the beam): the best distinct sequences the searches ended with.
struct SearchesOutput {
  std::string file; // empty: none written
  uint32_t kept = 1000;
};
std::vector<KeyDoc> searches_output_keys();
SearchesOutput read_searches_output(const ConfigSection& output);

// Where the best sequence goes: [output] best, else results/<name>.best.json.
std::string best_sequence_path(const ExperimentConfig& config, const std::string& best_file);
// Where the improvements go: [output] events, else results/<name>.events.jsonl.
std::string improvement_events_path(const ExperimentConfig& config);
// The files a search run writes beyond the results and [output] events (which every run's checks list already): the
// best sequence, and the improvements' file when [output] events does not name one.
RunFiles nested_run_outputs(const ExperimentConfig& config, const std::string& best_file);

// What a driver's search reports to the run around it.
struct NestedSearchHooks {
  core::ImprovementFn on_improvement;
  core::FinishedSearchFn on_finished;  // null unless the run keeps the searches' sequences
  core::SearchCheckpoints checkpoints; // for the search's budget
};

// The sequences a search run writes beside its results: the best (always) and, for NMCS, the searches'
// best distinct sequences.
struct NestedSearchFiles {
  std::string best;     // [output] best
  std::string searches; // [output] searches; empty: none written
  uint32_t searches_kept = 0;
  const std::vector<std::vector<uint32_t>>* starts = nullptr; // NMCS's starts, which the searches' moves follow
};

// The counts a search's outcome holds: NMCS's and NRPA's playouts (and level-1 steps, batches, evaluator seconds),
// or the beam search's levels and children (NestedSearchOutcome::batches, beam_children, beam_duplicates,
// beam_capped), which the report and the results' timings name in the beam's words.
enum class NestedCounts { playouts, beam };

// How the report names the search ("NMCS"), what its evaluator seconds measured ("level-1 searcher") and which
// counts it reports.
struct NestedSearchLabels {
  std::string title;
  std::string evaluator;
  NestedCounts counts = NestedCounts::playouts;
};

// Runs `search` (the driver's call of core's NMCS, NRPA or beam search with the hooks, under `budget`) and builds its
// outcome. Throws std::runtime_error when a reported sequence fails its check, CheckpointMismatch when the
// checkpoint it resumes is malformed.
std::unique_ptr<AlgorithmOutcome>
run_nested_search(const RunContext& context, const NestedSearchLabels& labels, const NestedSearchFiles& files,
                  const core::SearchBudget& budget,
                  const std::function<core::NestedSearchOutcome(const NestedSearchHooks&)>& search);

// The refusal of a checkpoint whose progress the core found not to fit the run (`gsdk run` exits 2).
CheckpointMismatch resume_mismatch(const RunContext& context, const core::ResumeError& e);

// The threads that drive a GPU search from the host: [run] threads, else all.
unsigned host_threads(const RunContext& context);

} // namespace gsdk::host
