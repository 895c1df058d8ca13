// search_launch.cuh - how the nested-search kernels are launched: which threads run searches (every thread, or
// the first lane of every warp), each search's workspace slot in the block's shared memory, and the block shape
// (up to 128 threads, fewer when the game's workspaces are large, so that a block's stay near 48 KiB).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/nested/strided_words.hpp"

namespace gsdk::nested {

// The blocks of a search kernel with one workspace per search slot.
struct SearchBlock {
  uint32_t words;   // 32-bit words of one workspace
  uint32_t threads; // per block
  size_t shared_bytes;
};

inline SearchBlock search_block(uint32_t workspace_words) {
  constexpr uint32_t kMaxBlock = 128;
  constexpr uint32_t kSharedBudget = 48 * 1024;
  if (workspace_words == 0) return {0, kMaxBlock, 0};
  const uint32_t threads = std::clamp<uint32_t>(kSharedBudget / (workspace_words * 4) / 32 * 32, 32, kMaxBlock);
  return {workspace_words, threads, size_t{threads} * workspace_words * 4};
}

// Which threads run searches: every thread, or only the first lane of every warp. A warp's 32 searches run
// each other's diverging branches one after another, so in a launch of fewer searches than the device holds
// warps one search per warp finishes several times sooner, and a search's latency is what the levels above
// it wait for. (A launch that fills the device needs every lane for throughput.) A template parameter, not a
// run-time flag: the kernel of one search per thread is then exactly the plain grid-stride kernel (with a
// run-time flag snake's level-2 search took 96 registers instead of 80 and ran a sixth slower).
template <bool PerWarp> struct SearchSlots {
  __device__ static bool idle() { return PerWarp && (threadIdx.x & 31) != 0; }
  __device__ static uint32_t in_block() { return PerWarp ? threadIdx.x >> 5 : threadIdx.x; }
  __device__ static uint32_t per_block() { return PerWarp ? blockDim.x >> 5 : blockDim.x; }
  __device__ static uint64_t first() { return uint64_t{blockIdx.x} * per_block() + in_block(); }
  __device__ static uint64_t stride() { return uint64_t{gridDim.x} * per_block(); }
  // The search's workspace in the block's shared memory.
  __device__ static StridedWords workspace(uint32_t* block_workspaces) {
    return {block_workspaces + in_block(), per_block()};
  }
};

// A search kernel's launch for `count` searches on `device`: the instantiation to launch and its shape.
template <typename Kernel> struct SearchLaunch {
  Kernel kernel;
  unsigned blocks;
  uint32_t threads;
  size_t shared_bytes;
};

template <auto PerWarpKernel, auto PerThreadKernel>
SearchLaunch<decltype(PerWarpKernel)> search_launch(uint32_t workspace_words, uint32_t count, int device,
                                                    const char* owner) {
  const SearchBlock block = search_block(workspace_words);
  const uint32_t warps = block.threads / 32;
  const size_t warp_shared = size_t{warps} * block.words * 4;
  const unsigned full = cuda::full_grid<PerWarpKernel>(device, static_cast<int>(block.threads), warp_shared, owner);
  if (uint64_t{count} <= uint64_t{full} * warps)
    return {PerWarpKernel, static_cast<unsigned>((count + warps - 1) / warps), block.threads, warp_shared};
  return {PerThreadKernel,
          cuda::grid_size<PerThreadKernel>(device, static_cast<int>(block.threads), count, block.shared_bytes, owner),
          block.threads, block.shared_bytes};
}

} // namespace gsdk::nested
