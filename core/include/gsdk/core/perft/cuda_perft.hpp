// cuda_perft.hpp - the breadth-first GPU perft engine that drives any plugin's gsdk.cuda_perft.v1 kernels.
//
// Per level: the plugin counts each state's moves (fused into the previous level's apply), a CUB scan
// turns counts into offsets, the plugin generates moves, a load-balanced expand maps every child to its
// parent (and root), and the plugin applies the moves; the last leaf_plies plies are counted by the
// plugin's fused leaf kernel. All memory comes from one arena per stream; when a level would not fit,
// the frontier is split and each part descends on its own. Without CUDA every call throws.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

class CudaPerftEngine {
public:
  // One engine per (device, stream); arena_bytes == 0 takes half of the device's free memory (callers
  // running several engines on one device should divide it themselves).
  // Throws std::runtime_error naming the device when it cannot start (no CUDA, no table, no memory).
  CudaPerftEngine(const GameInstance& game, int device, uint64_t arena_bytes);
  ~CudaPerftEngine();
  CudaPerftEngine(const CudaPerftEngine&) = delete;
  CudaPerftEngine& operator=(const CudaPerftEngine&) = delete;

  // leaves[i] = perft(roots[i], depth) (1 for depth 0). Throws std::invalid_argument on a root of the
  // wrong size, std::runtime_error on a CUDA or plugin failure or an arena too small for one state's
  // children (messages name the device and the call).
  std::vector<uint64_t> count(const std::vector<StateBlob>& roots, uint32_t depth);

  // Device time of the calls so far: CUDA events around each call's work on the engine's stream.
  double device_milliseconds() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace gsdk::core
