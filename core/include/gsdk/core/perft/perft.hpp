// perft.hpp - counts the leaves of a game's move tree to a fixed depth, on CPU threads and CUDA devices.
//
// The root is expanded on the host (per-state table) into subtrees with stable ids; CPU workers count
// one subtree at a time (the plugin's cpu_perft table, else recursion through the per-state table),
// each CUDA stream takes batches of subtrees to the breadth-first GPU engine (cuda_perft.hpp). Counts
// are exact integers, summed per root move in 128 bits, so the result never depends on who counted what.
//
// A job can be asked to stop (PerftJob::stop): CPU workers drop the subtrees they hold (within a fraction of a
// second), GPU streams finish their batches (about half a second each), and no more are taken. The
// subtrees counted so far (PerftProgress) can be handed to a later job of the same game, root and depth,
// which counts only the others and ends with the uninterrupted job's counts, whatever its workers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gsdk/core/perft/perft_hashing.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "gsdk/core/runtime/work_part.hpp"

namespace gsdk::core {

__extension__ typedef unsigned __int128 uint128;

std::string to_string(uint128 value);

// The subtrees of a job counted so far. Subtree ids number the root's expansion into at least
// `split_target` subtrees (the expansion is a function of root, depth and target alone).
struct PerftProgress {
  uint64_t split_target = 0;
  // The expansion merged equal states (a hashed job's): its subtrees are distinct states, each standing for every
  // path that reaches it. A job resumes only the progress of its own kind of expansion.
  bool distinct = false;
  uint64_t subtrees = 0;                             // what that expansion gave
  std::vector<std::pair<uint64_t, uint128>> counted; // (subtree id, leaves), by id
};

// How finely a count shared by processes (shards, MPI ranks) cuts its root (PerftJob::split_target): the same in
// every process whatever its workers, and about one subtree per block of a WorkPart of 4096 blocks.
inline constexpr uint64_t kSharedSplitTarget = 4096;

// Called with what has been counted so far, about every PerftJob::snapshot_seconds, never twice at once.
using PerftSnapshotFn = std::function<void(const PerftProgress&)>;

struct PerftJob {
  StateBlob root;
  uint32_t depth = 1;
  bool divide = false;           // also count per root move
  unsigned cpu_threads = 0;      // 0: no CPU workers
  std::vector<int> cuda_devices; // ordinals; empty: no GPU workers
  unsigned streams_per_device = 2;
  uint64_t arena_bytes_per_stream = 0; // 0: a share of the device's free memory
  bool force_generic = false;          // per-state recursion even when the plugin has perft tables
  const StopRequest* stop = nullptr;   // when raised, workers take no more subtrees (CPU ones drop theirs)
  // With a stop request, a CPU worker counts a subtree in plugin calls of at most about this long, so that it
  // drops the subtree that soon after a stop (0: every subtree cut down to calls at depth 1).
  double cpu_call_seconds = 0.1;
  // Subtrees counted by an earlier job of the same game, root and depth (a checkpoint's): not counted again.
  // Throws std::invalid_argument when it does not fit the root's expansion.
  const PerftProgress* resume = nullptr;
  // How many subtrees the root is cut into at least (0: enough for this job's workers). Processes that share one
  // count (shards, MPI ranks) must cut the root alike, whatever their workers, so that subtree ids agree.
  uint64_t split_target = 0;
  // When the count is spread over processes: the blocks of subtree ids this job counts (of those `resume` has
  // not); null: all. `leaves` and `divide` then cover the resumed subtrees and this part's.
  const WorkPart* part = nullptr;
  // Transposition tables (perft_hashing.hpp); off: every subtree is counted whole, as without tables.
  PerftHashing hashing;
  PerftSnapshotFn on_snapshot; // e.g. to save a checkpoint while the job runs
  double snapshot_seconds = 60;
};

struct PerftMoveCount {
  uint32_t move = 0;
  std::string text; // move_to_string at the root
  uint128 leaves = 0;
};

struct PerftOutcome {
  uint128 leaves = 0;
  std::vector<PerftMoveCount> divide; // root moves in legal_moves order, when job.divide
  double wall_seconds = 0;            // the count itself, from after the GPU engines have started
  double startup_seconds = 0;         // starting the GPU engines (context, arenas, kernels loaded): not in wall_seconds
  uint128 cpu_leaves = 0;             // how the work was shared
  uint128 cuda_leaves = 0;
  double device_milliseconds = 0; // GPU kernel time the engines measured, summed over streams
  std::string engine;             // "plugin-cpu", "generic", "cuda-bfs", or a '+'-joined mix
  std::string error;              // empty when complete; otherwise leaves covers only finished subtrees
  bool stopped = false;           // the stop request ended the job before every subtree was counted
  PerftProgress progress;         // the subtrees counted, the resumed ones included (none at depth 0 or 1)
  PerftHashStats hash;            // the tables' work, when job.hashing.enabled
};

// Called from a monitor thread about ten times a second with (subtrees done, subtrees total).
using PerftProgressFn = std::function<void(uint64_t done, uint64_t total)>;

// Throws std::invalid_argument for a job that cannot run (a root of the wrong size, no workers, GPUs
// without the plugin's CUDA perft table or with force_generic). Whatever fails while counting (a GPU
// engine that cannot start, a plugin error) comes back in PerftOutcome::error instead.
PerftOutcome run_perft(const GameInstance& game, const PerftJob& job, const PerftProgressFn& progress = {});

// perft(state, depth) through the per-state table alone, on the calling thread: the reference the
// faster paths are tested against.
uint128 generic_perft(const GameInstance& game, const StateBlob& state, uint32_t depth);

} // namespace gsdk::core
