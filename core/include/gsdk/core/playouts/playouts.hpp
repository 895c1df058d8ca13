// playouts.hpp - flat Monte Carlo playouts of any game, on CPU threads and CUDA devices.
//
// Playout i of a job always uses the random stream (seed, i), so the result is a function of
// (game, parameters, seed, playouts, start state) alone: not of thread count, devices, or how the
// range was cut. Work is cut into items of stable ids; CPU workers take one item at a time, each
// CUDA stream takes runs of items; every partial result is an exact integer summary, merged in a
// fixed order.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gsdk/core/playouts/playout_result.hpp"
#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

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
};

struct PlayoutTimings {
  double wall_seconds = 0;
  double device_milliseconds = 0; // kernel time the CUDA table measured, summed over calls
  uint64_t cpu_playouts = 0;
  uint64_t cuda_playouts = 0;
};

struct PlayoutOutcome {
  PlayoutResult result;
  PlayoutTimings timings;
  std::string engine; // "batch" or "generic"
  std::string error;  // empty when every playout ran; else the result covers only what completed
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
