// strided_bits.cuh - the blocked-vertex bitsets snake's kernels keep in shared memory, one or more per
// thread, their words interleaved (word w of thread t at w * blockDim + t) so a warp's 32 accesses always
// hit 32 different banks; and how the search kernels are launched (block shape, one search per thread or
// per warp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/hd.hpp"

namespace snake::cuda {

struct StridedBits {
  uint32_t* word0;
  uint32_t stride;
  GSDK_HD bool test(uint32_t v) const { return (word0[(v >> 5) * stride] >> (v & 31)) & 1u; }
  GSDK_HD void set(uint32_t v) const { word0[(v >> 5) * stride] |= 1u << (v & 31); }
};

// 32-bit words needed for the vertices of dimension d.
inline uint32_t words32(uint32_t dimension) {
  return dimension <= 5 ? 1u : 1u << (dimension - 5);
}

// The blocks of a search kernel with one bitset per thread: up to 128 threads, fewer in large cubes so that
// a block's bitsets stay near 48 KiB.
struct SearchBlock {
  uint32_t words;   // 32-bit words of one bitset
  uint32_t threads; // per block
  size_t shared_bytes;
};

inline SearchBlock search_block(uint32_t dimension) {
  constexpr uint32_t kMaxBlock = 128;
  constexpr uint32_t kSharedBudget = 48 * 1024;
  const uint32_t words = words32(dimension);
  const uint32_t threads = std::clamp<uint32_t>(kSharedBudget / (words * 4) / 32 * 32, 32, kMaxBlock);
  return {words, threads, size_t{threads} * words * 4};
}

// Which threads run searches: every thread, or only the first lane of every warp. A warp's 32 searches run
// each other's diverging branches one after another, so in a launch of fewer searches than the device holds
// warps one search per warp finishes several times sooner, and a search's latency is what the levels above
// it wait for. (A launch that fills the device needs every lane for throughput.) A template parameter, not a
// run-time flag: the kernel of one search per thread is then exactly the plain grid-stride kernel (with a
// run-time flag its level-2 search took 96 registers instead of 80 and ran a sixth slower).
template <bool PerWarp> struct SearchSlots {
  __device__ static bool idle() { return PerWarp && (threadIdx.x & 31) != 0; }
  __device__ static uint32_t in_block() { return PerWarp ? threadIdx.x >> 5 : threadIdx.x; }
  __device__ static uint32_t per_block() { return PerWarp ? blockDim.x >> 5 : blockDim.x; }
  __device__ static uint64_t first() { return uint64_t{blockIdx.x} * per_block() + in_block(); }
  __device__ static uint64_t stride() { return uint64_t{gridDim.x} * per_block(); }
  // The search's bitset in the block's shared memory.
  __device__ static StridedBits bits(uint32_t* block_bitsets) { return {block_bitsets + in_block(), per_block()}; }
};

// A search kernel's launch for `count` searches on `device`: the instantiation to launch and its shape.
template <typename Kernel> struct SearchLaunch {
  Kernel kernel;
  unsigned blocks;
  uint32_t threads;
  size_t shared_bytes;
};

template <auto PerWarpKernel, auto PerThreadKernel>
SearchLaunch<decltype(PerWarpKernel)> search_launch(uint32_t dimension, uint32_t count, int device, const char* owner) {
  const SearchBlock block = search_block(dimension);
  const uint32_t warps = block.threads / 32;
  const size_t warp_shared = size_t{warps} * block.words * 4;
  const unsigned full = gsdk::cuda::full_grid<PerWarpKernel>(device, static_cast<int>(block.threads), warp_shared, owner);
  if (uint64_t{count} <= uint64_t{full} * warps)
    return {PerWarpKernel, static_cast<unsigned>((count + warps - 1) / warps), block.threads, warp_shared};
  return {PerThreadKernel,
          gsdk::cuda::grid_size<PerThreadKernel>(device, static_cast<int>(block.threads), count, block.shared_bytes, owner),
          block.threads, block.shared_bytes};
}

} // namespace snake::cuda
