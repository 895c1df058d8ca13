// launch.cuh - host-side helpers every plugin's CUDA tables need: failures as plugin errors that name
// the call, the pair of events that times one call, and the grid that fills a device for a grid-stride
// kernel (found once per kernel, device and block shape: search agents launch once per batch of
// leaves, and the occupancy queries would otherwise sit on their hot path).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "gsdk/plugin.hpp"

namespace gsdk::cuda {

// Throws GSDK_ERR_DEVICE "<owner>: <what> failed: <CUDA's reason>" unless status is cudaSuccess.
inline void check(cudaError_t status, const char* owner, const char* what) {
  if (status != cudaSuccess)
    throw PluginError(std::string(owner) + ": " + what + " failed: " + cudaGetErrorString(status), GSDK_ERR_DEVICE);
}

// Two events around one call's kernels, destroyed whatever happens.
class EventPair {
public:
  explicit EventPair(const char* owner) {
    check(cudaEventCreate(&started), owner, "cudaEventCreate");
    check(cudaEventCreate(&finished), owner, "cudaEventCreate");
  }
  ~EventPair() {
    cudaEventDestroy(started);
    cudaEventDestroy(finished);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  cudaEvent_t started = nullptr, finished = nullptr;
};

// Blocks of `block` threads (and `shared_bytes` of dynamic shared memory each) that fit on every SM of
// `device` at once, for the kernel `Kernel`.
template <auto Kernel> unsigned full_grid(int device, int block, size_t shared_bytes, const char* owner) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, size_t>, unsigned> grids;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(device, block, shared_bytes);
  if (const auto known = grids.find(key); known != grids.end()) return known->second;
  int sms = 0, per_sm = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), owner, "cudaDeviceGetAttribute");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, block, shared_bytes), owner,
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return grids[key] = static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}

// Enough blocks for `threads` threads, at most a full device (each thread then loops).
template <auto Kernel>
unsigned grid_size(int device, int block, uint64_t threads, size_t shared_bytes, const char* owner) {
  const uint64_t needed = (threads + block - 1) / block;
  const unsigned full = full_grid<Kernel>(device, block, shared_bytes, owner);
  return needed < full ? static_cast<unsigned>(needed) : full;
}

} // namespace gsdk::cuda
