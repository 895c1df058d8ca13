// playouts.hpp - flat Monte Carlo playouts of any game, on CPU threads and CUDA devices.
//
// Playout i of a job always uses the random stream (seed, i), so the result is a function of
// (game, parameters, seed, playouts, start state) alone: not of thread count, devices, or how the
// range was cut. Work is cut into items of stable ids; CPU workers take one item at a time, each
// CUDA stream takes runs of items; every partial result is an exact integer summary, merged in a
// fixed order.
//
// A job can be asked to stop (PlayoutJob::stop): workers finish the items they hold and claim no more, and
// the outcome holds exactly the playouts that completed. What completed (PlayoutProgress) can be saved and
// handed to a later job of the same (game, parameters, seed, playouts, start state), which runs only the rest
// and ends with the result an uninterrupted job gives.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gsdk/core/playouts/playout_result.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "gsdk/core/runtime/work_part.hpp"

namespace gsdk::core {

// Half-open ranges [first, end) of playout numbers, sorted, disjoint and not touching.
using PlayoutRanges = std::vector<std::pair<uint64_t, uint64_t>>;

// Adds [first, end) to `ranges`, joining it with the ranges it touches; it must not overlap them.
void add_playout_range(PlayoutRanges& ranges, uint64_t first, uint64_t end);

// The playouts of a job done so far: which, and their merged result.
struct PlayoutProgress {
  PlayoutRanges completed;
  PlayoutResult result;
};

// Called with what has completed so far, about every PlayoutJob::snapshot_seconds, never twice at once.
using PlayoutSnapshotFn = std::function<void(const PlayoutProgress&)>;

struct PlayoutJob {
  uint64_t seed = 0;
  uint64_t playouts = 0;
  std::optional<StateBlob> start_state;
  unsigned cpu_threads = 0;      // 0: no CPU workers
  std::vector<int> cuda_devices; // ordinals; empty: no GPU workers
  unsigned streams_per_device = 2;
  int32_t simd_level = GSDK_SIMD_AVX512; // highest allowed; the plugin lowers it to what it has
  bool force_generic = false;            // per-state path even when a batch table exists
  uint64_t cpu_item_playouts = 1u << 22; // at most; smaller when the job would give a CPU worker few items
  const StopRequest* stop = nullptr;     // when raised, workers claim no more items
  // Playouts already done by an earlier job (a checkpoint): skipped, and their result merged in. Throws
  // std::invalid_argument when its ranges leave [0, playouts), overlap or do not add up to its result's count.
  const PlayoutProgress* resume = nullptr;
  // When the run is spread over processes: the blocks of playout numbers this job runs (of those `resume` has
  // not); null: all. The outcome then covers the resumed playouts and this part's.
  const WorkPart* part = nullptr;
  PlayoutSnapshotFn on_snapshot; // e.g. to save a checkpoint while the job runs
  double snapshot_seconds = 60;
};

struct PlayoutTimings {
  double wall_seconds = 0;
  double device_milliseconds = 0; // kernel time the CUDA table measured, summed over calls
  uint64_t cpu_playouts = 0;
  uint64_t cuda_playouts = 0;
};

struct PlayoutOutcome {
  PlayoutResult result; // of the completed playouts, the resumed ones included
  PlayoutRanges completed;
  PlayoutTimings timings; // of this job alone
  std::string engine;     // "batch" or "generic"
  std::string error;      // empty when every playout ran; else the result covers only what completed
  bool stopped = false;   // the stop request ended the job before every playout ran (not an error)
};

// Called from a monitor thread about ten times a second with (done, total) playouts.
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

PlayoutOutcome run_playouts(const GameInstance& game, const PlayoutJob& job, const ProgressFn& progress = {});

// One playout through the per-state table: uniform moves for players, outcome probabilities at
// chance nodes, all drawn from PhiloxStream(seed, playout). Appends the moves made when `moves`
// is given. Returns the score.
int64_t generic_playout(const GameInstance& game, uint64_t seed, uint64_t playout, const StateBlob& start,
                        std::vector<uint32_t>* moves = nullptr);

} // namespace gsdk::core
