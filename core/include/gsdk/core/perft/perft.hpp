// perft.hpp - counts the leaves of a game's move tree to a fixed depth, on CPU threads and CUDA devices.
//
// The root is expanded on the host (per-state table) into subtrees with stable ids; CPU workers count
// one subtree at a time (the plugin's cpu_perft table, else recursion through the per-state table),
// each CUDA stream takes batches of subtrees to the breadth-first GPU engine (cuda_perft.hpp). Counts
// are exact integers, summed per root move in 128 bits, so the result never depends on who counted what.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

__extension__ typedef unsigned __int128 uint128;

std::string to_string(uint128 value);

struct PerftJob {
  StateBlob root;
  uint32_t depth = 1;
  bool divide = false;           // also count per root move
  unsigned cpu_threads = 0;      // 0: no CPU workers
  std::vector<int> cuda_devices; // ordinals; empty: no GPU workers
  unsigned streams_per_device = 2;
  uint64_t arena_bytes_per_stream = 0; // 0: a share of the device's free memory
  bool force_generic = false;          // per-state recursion even when the plugin has perft tables
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
