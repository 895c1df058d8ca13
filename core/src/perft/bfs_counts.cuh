// bfs_counts.cuh - the GPU perft engine's two reductions over per-state counts: the 64-bit total of a level's
// move counts (the host plans the level's memory from it) and counts folded into their owners' 64-bit totals (leaf
// counts into their roots', or a hashed level's children's counts into their parents'). Device code for the core's
// CUDA perft files, which alone include it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace gsdk::core::bfs {

inline constexpr int kCountThreads = 256;
// add_counts: items per thread, strided by warp so that every load is coalesced.
inline constexpr uint32_t kLeafItems = 8;
inline constexpr uint32_t kLeafTile = kCountThreads * kLeafItems;
inline constexpr uint32_t kNoOwner = 0xffffffffu; // no run started yet (owner indices are < 2^31)

inline constexpr unsigned kFullWarp = 0xffffffffu;

// *total += counts[0] + ... + counts[n - 1], summed in 64 bits: grid-stride per thread, then CUB's block
// reduction and one atomic per block.
static __global__ void __launch_bounds__(kCountThreads)
    sum_counts_kernel(const uint32_t* counts, uint32_t n, unsigned long long* total) {
  using BlockSum = cub::BlockReduce<unsigned long long, kCountThreads>;
  __shared__ typename BlockSum::TempStorage storage;
  unsigned long long sum = 0;
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) sum += counts[i];
  sum = BlockSum(storage).Sum(sum);
  if (threadIdx.x == 0 && sum != 0) atomicAdd(total, sum);
}

// totals[roots[i]] += counts[i], where roots[i] is state i's owner (its root, or its parent). A frontier lists the
// states of each owner contiguously and in owner order (the expand keeps parents' order), so each lane sums runs of
// one owner and flushes at a change; the lanes' last runs are then merged by a segmented warp reduction, so a warp
// issues about one atomic per owner it saw instead of one per state.
template <typename Count>
static __global__ void __launch_bounds__(kCountThreads)
    add_counts_kernel(const Count* counts, const uint32_t* roots, uint32_t n, unsigned long long* totals) {
  const unsigned lane = threadIdx.x & 31;
  const uint64_t warp_base = uint64_t{blockIdx.x} * kLeafTile + (threadIdx.x >> 5) * 32 * kLeafItems;
  uint32_t root = kNoOwner;
  unsigned long long sum = 0;
  for (uint32_t k = 0; k < kLeafItems; ++k) {
    const uint64_t i = warp_base + k * 32 + lane;
    if (i >= n) break;
    const uint32_t r = roots[i];
    if (r != root) {
      if (sum != 0) atomicAdd(&totals[root], sum);
      root = r;
      sum = 0;
    }
    sum += counts[i];
  }
  // In a full warp lane l's last item precedes lane l+1's, so equal last roots sit in adjacent lanes and CUB's
  // head-segmented warp sum gives each run's sum to its first lane. In the one warp the end of the frontier cuts
  // short, lanes' last items are not in lane order: each lane adds its own. (The exit is warp-uniform.)
  if (warp_base + 32 * kLeafItems > n) {
    if (sum != 0) atomicAdd(&totals[root], sum);
    return;
  }
  using WarpSum = cub::WarpReduce<unsigned long long>;
  __shared__ typename WarpSum::TempStorage storage[kCountThreads / 32];
  const uint32_t previous_root = __shfl_up_sync(kFullWarp, root, 1);
  const bool head = lane == 0 || previous_root != root;
  sum = WarpSum(storage[threadIdx.x >> 5]).HeadSegmentedSum(sum, head);
  if (head && sum != 0) atomicAdd(&totals[root], sum);
}

// Launchers; n > 0. They return the launch status.
inline cudaError_t sum_counts(const uint32_t* counts, uint32_t n, unsigned long long* total, uint32_t max_blocks,
                              cudaStream_t stream) {
  const uint64_t wanted = (uint64_t{n} + kCountThreads - 1) / kCountThreads;
  const auto blocks = static_cast<unsigned>(wanted < max_blocks ? wanted : max_blocks);
  sum_counts_kernel<<<blocks, kCountThreads, 0, stream>>>(counts, n, total);
  return cudaGetLastError();
}

template <typename Count>
inline cudaError_t add_counts(const Count* counts, const uint32_t* owners, uint32_t n, unsigned long long* totals,
                              cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((uint64_t{n} + kLeafTile - 1) / kLeafTile);
  add_counts_kernel<Count><<<blocks, kCountThreads, 0, stream>>>(counts, owners, n, totals);
  return cudaGetLastError();
}

} // namespace gsdk::core::bfs
