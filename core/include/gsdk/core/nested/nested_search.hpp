// nested_search.hpp - Nested Monte Carlo Search (Cazenave 2009) and Nested Rollout Policy Adaptation
// (Rosin 2011) for one-player games, written against the ABI so that any such game can use them.
//
// Both are batched: a search is a state machine that hands out the playouts it needs next, several
// independent searches run side by side, and each round's playouts from all of them go to the evaluator
// in one batch. At an NMCS step every child's lower-level search is independent of its siblings, so all
// of them advance together. NRPA's iterations depend on each other, so its batches come from the
// searches side by side alone.
//
// Determinism: search k (k = 0, 1, ... over restarts) draws its playouts from the streams
// (seed, k * 2^40 + b * 2^20 + n): b numbers its level-1 searches by their place in the search's tree (at
// level 2, in the order they start), n a level-1 search's own playouts. So a search's result is a function
// of (game, parameters, seed, k, its start): not of threads, batching, pipelining, the searches beside it,
// or whether its level-1 searches ran on a GPU. Equal scores go to the lowest k, then the smallest moves, so
// without a time limit the run's best is such a function too. NRPA: search k's n-th playout draws (seed, k * 2^40 + n),
// whether its lowest levels run here or on a device (gsdk/nrpa/policy_softmax.hpp makes the arithmetic
// agree), and equal scores go to the lowest k, then to the search's later sequence.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/nested/nrpa_searcher.hpp"
#include "gsdk/core/playouts/playout_batch_evaluator.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "gsdk/core/runtime/work_part.hpp"

namespace gsdk::core {

struct MoveSequence {
  int64_t score = std::numeric_limits<int64_t>::min(); // min: no sequence yet
  std::vector<uint32_t> moves;                         // from the initial state to a terminal one
  bool empty() const { return score == std::numeric_limits<int64_t>::min(); }
};

// A sequence better than every one the run had found, found by search `search` after `seconds`.
struct Improvement {
  double seconds = 0;
  int64_t score = 0;
  uint32_t search = 0;
  const std::vector<uint32_t>* moves = nullptr;
};
using ImprovementFn = std::function<void(const Improvement&)>;

// A search that ended (one of the run's searches_finished): its number, which of NmcsSettings::starts it began
// from (0 when there are none), its best score and the moves after the start's that reach it.
struct FinishedSearch {
  uint32_t search = 0;
  uint32_t start = 0;
  int64_t score = 0;
  std::span<const uint32_t> moves;
};
using FinishedSearchFn = std::function<void(const FinishedSearch&)>;

struct NestedSearchProgress;

// Checkpoints of a run of searches: what an earlier run of the same searches completed, to go on from (null:
// start afresh), and where to hand what this run has completed, every `seconds` and when it ends.
struct SearchCheckpoints {
  const NestedSearchProgress* resume = nullptr;
  std::function<void(const NestedSearchProgress&)> save; // on the calling thread, between rounds
  double seconds = 60;
};

// When to stop: after restarts + 1 searches, when time_seconds have passed (0: no limit), at `deadline` or when a
// sequence scores stop_at_score (a known optimum, say), whichever comes first. A search cut short still
// contributes what it found. A raised stop request acts as the time limit arriving now. A resumed run's
// time_seconds count the earlier runs' time too.
struct SearchBudget {
  double time_seconds = 0;
  // The end of the time of a job this run is a part of (MPI ranks share one clock), on this process's steady clock:
  // it ends the run as time_seconds would, and a run that begins after it starts no search and goes on with no
  // search under way. Null: none.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  const StopRequest* stop = nullptr;
  uint32_t restarts = 0;
  uint32_t searches_in_parallel = 1;
  std::optional<int64_t> stop_at_score;
  SearchCheckpoints checkpoints;
  // When the run is spread over processes: the blocks of search numbers (of restarts + 1) this run starts; null:
  // all. time_seconds and stop_at_score then bound this part alone; `deadline` the job's time.
  const WorkPart* part = nullptr;
};

// The playouts' seed and threads are the evaluator's.
struct NmcsSettings {
  uint32_t level = 1; // >= 1; level 0 is a playout
  SearchBudget budget;
  // With a level-1 searcher: the searches side by side form two groups, and one group's level-1 searches
  // run while the host retires and refills the other. The results are the same either way.
  bool pipeline = true;
  // With a level-1 searcher: host threads that deliver a round's results to its searches and build their
  // next steps. The results are the same for any number.
  unsigned host_threads = 1;
  // Move lists played from the initial state before the searches: search k starts where starts[k mod n]
  // leads, and every sequence it reports begins with those moves (good prefixes to build on, e.g. a smaller
  // cube's snakes; with many, the searches side by side take turns among them). Empty: the initial state.
  std::vector<std::vector<uint32_t>> starts;
  // Starts that already end the game are refused (StartMovesError), or with this left out and counted in
  // NestedSearchOutcome::starts_skipped (e.g. an earlier run's snakes of a smaller box, some of which have no
  // way on); searches then take turns among the rest and report each by its place in `starts`.
  bool skip_finished_starts = false;
};

struct NrpaSettings {
  uint64_t seed = 1;
  uint32_t level = 1;        // >= 1
  uint32_t iterations = 100; // calls of level - 1 per level-`level` search
  double alpha = 1.0;        // the adaptation's step
  unsigned threads = 1;      // CPU threads for the policy playouts (with a device: for its results)
  SearchBudget budget;
  // A warm start: legal moves from the initial state (a known good game, or one that stops short of the end, such as
  // a smaller cube's snake, which a larger cube extends). Every search's policy starts adapted `warm_adaptations`
  // times towards them (as NRPA adapts towards its best), and when they end the game, its top level's best starts as
  // that game, so no search reports less. Empty: policies start at 0.
  std::vector<uint32_t> warm_moves;
  uint32_t warm_adaptations = 0;
};

struct NestedSearchOutcome {
  MoveSequence best;             // the best of the run (empty only if no playout finished)
  uint32_t best_search = 0;      // the lowest-numbered search that found the best score
  uint32_t searches_started = 0; // a resumed run's count the searches its checkpoint holds as finished
  uint32_t searches_finished = 0;
  uint32_t starts_skipped = 0; // NMCS: finished starts left out (NmcsSettings::skip_finished_starts)
  uint64_t playouts = 0;
  uint64_t level1_steps = 0;    // NMCS: moves chosen by level-1 searches; NRPA: 0
  uint64_t level1_searches = 0; // NMCS: level-1 searches started (frames here or handed to a level-1 searcher)
  uint64_t batches = 0;         // beam search: levels expanded
  uint64_t beam_children = 0;   // beam search: children scored
  uint64_t beam_duplicates = 0; // beam search: children dropped because an earlier child of their level had their key
  uint64_t beam_capped = 0;     // beam search: children dropped by the cap of children per parent
  // NMCS: wall time inside the playout evaluator or level-1 searcher (pipelined: inside its start and
  // finish calls, i.e. the time the host waits for it)
  double evaluator_seconds = 0;
  double wall_seconds = 0; // a resumed run's, and so its counts above, add up every run it went on from
  bool stopped_by_time = false;
  bool stopped_by_request = false; // SearchBudget::stop ended the run before its budget did
  bool reached_stop_score = false;
  std::string engine; // "batch" or "generic" (NMCS), "policy" (NRPA), "beam"
  std::string device; // what ran the playouts
};

// The numbers of the searches of a run that have ended: every one below `below`, and those in `above` (searches
// side by side end out of order, but never far from the lowest one still going, so this stays small).
class FinishedSearches {
public:
  FinishedSearches() = default;
  // Throws std::invalid_argument when a number in `above` is not above `below`.
  FinishedSearches(uint32_t below, std::set<uint32_t> above);

  bool contains(uint32_t search) const { return search < below_ || above_.contains(search); }
  void insert(uint32_t search);
  uint64_t count() const { return below_ + above_.size(); }
  uint32_t below() const { return below_; }
  const std::set<uint32_t>& above() const { return above_; }

private:
  uint32_t below_ = 0;
  std::set<uint32_t> above_;
};

// A search under way, as it stood at the start of its top level's step (NMCS: the choice of its next move) or
// iteration (NRPA): what a resumed run needs to go on from there as the search would have gone on.
struct SearchUnderWay {
  uint32_t search = 0;
  std::vector<uint32_t> played; // NMCS: the moves its top level has chosen, from the search's start
  MoveSequence best;            // its top level's best: NMCS from the search's start, NRPA from the initial state
  // What keys the random streams to come: NMCS the children its top level had made (at level 1: its next
  // stream), NRPA the search's next stream.
  uint64_t counter = 0;
  uint32_t iteration = 0;     // NRPA: its top level's iterations done
  std::vector<double> policy; // NRPA: its top level's policy
};

// What a run of searches has completed, for a checkpoint: the searches that ended, the searches under way at
// the start of their top level's step or iteration, and the run as it stood (its best so far and the search that
// found it, its counts and wall_seconds, which count the earlier runs it resumed too). A run that resumes it
// starts no finished search, and the searches under way at that step or iteration (any other search from its
// beginning): since a search's result is a function of its number (see the top of the file), the searches end as
// they would have, and a run bounded by counts alone (no time_seconds or stop_at_score) ends as it would have
// ended uninterrupted.
struct NestedSearchProgress {
  FinishedSearches finished;
  std::vector<SearchUnderWay> under_way;
  NestedSearchOutcome run;
};

// A checkpoint's progress that does not fit the run resuming it (searches beyond its own, a search under way
// whose moves are not the game's, a policy of another size).
struct ResumeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Throws std::invalid_argument naming the game and `algorithm` unless it is a one-player game without
// chance moves.
void require_one_player_game(const GameInstance& game, const std::string& algorithm);

// Runs NMCS from the initial state, or from where settings.starts lead. Throws std::invalid_argument for a
// game or settings it cannot search (StartMovesError for start moves that are not a legal, unfinished game,
// NmcsLevelError for a level too deep for the game's number of moves).
// With `level1` every level-1 search runs whole on it (a GPU) and the evaluator is not used. on_finished
// hears of every search that ends, on the calling thread.
NestedSearchOutcome run_nmcs(const GameInstance& game, const NmcsSettings& settings, PlayoutBatchEvaluator& evaluator,
                             const ImprovementFn& on_improvement = {}, Level1Searcher* level1 = nullptr,
                             const FinishedSearchFn& on_finished = {});

// Runs NRPA from the initial state; needs the game's move-code table (gsdk.move_codes.v1). With `device`
// every call of its level (the whole search when that is the search's level) runs on it, and the CPU threads
// only replay its sequences and adapt the levels above.
NestedSearchOutcome run_nrpa(const GameInstance& game, const NrpaSettings& settings,
                             const ImprovementFn& on_improvement = {}, NrpaSearcher* device = nullptr);

// The score of `moves` played from the initial state through the per-state table; throws
// std::invalid_argument when a move is illegal or the sequence does not end the game.
int64_t replay_score(const GameInstance& game, const std::vector<uint32_t>& moves);

// NMCS's start moves that are not a legal sequence from the initial state, or that end the game.
struct StartMovesError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// An NMCS level whose tree of frames would not fit: a search keeps a frame per legal move at every level
// below its root at once (so that all their playouts form one batch), up to max_moves^(level - 1) of them.
struct NmcsLevelError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The most frames one NMCS search may keep at once (NmcsLevelError beyond): about 1 GB for a game whose
// sequences are a hundred moves long, and a round of at most max_moves times as many playouts, so that a
// time budget is checked at least every few seconds.
inline constexpr uint64_t kMaxNmcsFramesPerSearch = uint64_t{1} << 20;

} // namespace gsdk::core
