// cuda_perft.hpp - the breadth-first GPU perft engine that drives any plugin's gsdk.cuda_perft.v1 kernels.
//
// Per level: the plugin counts each state's moves (fused into the previous level's apply), a CUB scan
// turns counts into offsets, the plugin generates moves, a load-balanced expand maps every child to its
// parent (and root), and the plugin applies the moves; the last leaf_plies plies are counted by the
// plugin's fused leaf kernel. All memory comes from one arena per stream; when a level would not fit,
// the frontier is split and each part descends on its own. Without CUDA every call throws.
//
// Hashed (an engine given a CudaPerftTable): every level that expands first merges its equal states and looks
// the others up in the device's table; only those the table lacks expand, and once their children are counted the
// counts travel back up level by level and are stored (cuda_hashed_count.cu).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gsdk/core/perft/perft_hashing.hpp"
#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

// A GPU's perft transposition table, shared by the hashed engines of its device (and by their streams at once).
class CudaPerftTable {
public:
  // Takes `bytes` of device memory (whole 64-byte buckets), cleared. Throws std::runtime_error naming the device and
  // the size when it cannot (no CUDA, not enough memory).
  CudaPerftTable(int device, uint64_t bytes);
  ~CudaPerftTable();
  CudaPerftTable(const CudaPerftTable&) = delete;
  CudaPerftTable& operator=(const CudaPerftTable&) = delete;

  int device() const;
  // Size, look-ups, hits, stores and the slots filled so far (waits for the device).
  PerftTableStats stats() const;

  struct Impl;
  Impl& impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

// A table's size when the job names none: room for twice the `nodes` a job may store (16 bytes each), within
// the device's free memory less `reserved` bytes (its engines' arenas), at least a mebibyte.
uint64_t default_cuda_table_bytes(int device, double nodes, uint64_t reserved);

class CudaPerftEngine {
public:
  // One engine per (device, stream); arena_bytes == 0 takes half of the device's free memory (callers
  // running several engines on one device should divide it themselves).
  // Throws std::runtime_error naming the device when it cannot start (no CUDA, no table, no memory).
  // With a table (of the same device), the engine counts hashed.
  CudaPerftEngine(const GameInstance& game, int device, uint64_t arena_bytes,
                  std::shared_ptr<CudaPerftTable> table = {});
  ~CudaPerftEngine();
  CudaPerftEngine(const CudaPerftEngine&) = delete;
  CudaPerftEngine& operator=(const CudaPerftEngine&) = delete;

  // leaves[i] = perft(roots[i], depth) (1 for depth 0). Throws std::invalid_argument on a root of the
  // wrong size, std::runtime_error on a CUDA or plugin failure or an arena too small for one state's
  // children (messages name the device and the call).
  std::vector<uint64_t> count(const std::vector<StateBlob>& roots, uint32_t depth);

  // Device time of the calls so far: CUDA events around each call's work on the engine's stream.
  double device_milliseconds() const;

  // Of a hashed engine's calls so far: the states of its hashed levels, and those merged with an equal state.
  uint64_t frontier_states() const;
  uint64_t duplicates() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace gsdk::core
