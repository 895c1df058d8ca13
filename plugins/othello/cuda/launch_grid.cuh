// launch_grid.cuh - how many blocks of a grid-stride kernel fill a device: found once per kernel and
// device, because search agents launch once per batch of leaves and the occupancy queries would
// otherwise sit on their hot path.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "cuda_check.hpp"

namespace othello::cuda {

// Blocks of `block` threads that fit on every SM of `device` at once, for the kernel `Kernel`.
template <auto Kernel> unsigned full_grid(int device, int block) {
  static std::mutex mutex;
  static std::map<int, unsigned> grids;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto known = grids.find(device); known != grids.end()) return known->second;
  int sms = 0, per_sm = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, block, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return grids[device] = static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}

// Enough blocks for `threads` threads, at most a full device (each thread then loops).
template <auto Kernel> unsigned grid_size(int device, int block, uint64_t threads) {
  const uint64_t needed = (threads + block - 1) / block;
  const unsigned full = full_grid<Kernel>(device, block);
  return needed < full ? static_cast<unsigned>(needed) : full;
}

} // namespace othello::cuda
