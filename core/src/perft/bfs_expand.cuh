// bfs_expand.cuh - the GPU perft engine's load-balanced expand: for every child of a level, the index
// of its parent and the root it descends from. Device code for cuda_perft.cu, which alone includes it.
//
// Merge path over two sorted lists: the parents' starts (parent p at key offsets[p], its exclusive
// prefix sum of move counts) and the children (child j at key j), a start ahead of a child of equal
// key. In the merged order parent p sits at p + offsets[p] and the parent of child j is the last
// start before it. Every block takes the same number of merged items (parents plus children), so the
// work is balanced whatever the branching: a million terminal parents cost as much as a million
// children, and a parent with a thousand moves is shared between blocks. A partition kernel finds
// each block's first parent with one binary search; the block stages its parents' offsets and roots
// in shared memory and each thread finds its children's parents by binary search there.
// Global traffic: 8 bytes written per child (parent, root), 8 bytes read per parent; the work is
// O(parents + children), the shared-memory searches O(children log kExpandItems).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gsdk::core::bfs {

inline constexpr int kExpandThreads = 256;
inline constexpr uint32_t kExpandItems = 2048; // merged items (parents + children) per block

// Blocks of the expand for n parents and `children` children (n + children < 2^32).
inline uint32_t expand_blocks(uint32_t n, uint32_t children) {
  return static_cast<uint32_t>((uint64_t{n} + children + kExpandItems - 1) / kExpandItems);
}

// Number of parents whose start lies before merged position `diagonal`: #{p : p + offsets[p] < diagonal}
// (p + offsets[p] is strictly increasing).
__device__ __forceinline__ uint32_t parents_before(const uint32_t* offsets, uint32_t n, uint64_t diagonal) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (uint64_t{mid} + offsets[mid] < diagonal)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// splits[b] = the first parent of expand block b, for b <= blocks.
static __global__ void partition_kernel(const uint32_t* offsets, uint32_t n, uint32_t children, uint32_t blocks,
                                 uint32_t* splits) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b > blocks) return;
  const uint64_t merged = uint64_t{n} + children;
  const uint64_t diagonal = uint64_t{b} * kExpandItems;
  splits[b] = parents_before(offsets, n, diagonal < merged ? diagonal : merged);
}

// parents[j] = the parent of child j; child_roots[j] = roots[parents[j]] unless roots is null (a hashed level
// folds counts into parents, not roots).
static __global__ void __launch_bounds__(kExpandThreads)
    expand_kernel(const uint32_t* offsets, const uint32_t* roots, uint32_t n, uint32_t children, const uint32_t* splits,
                  uint32_t* parents, uint32_t* child_roots) {
  // The block's own parents' offsets, and their roots preceded by the root of the parent just
  // before them (whose children may run on into this block).
  __shared__ uint32_t block_offsets[kExpandItems];
  __shared__ uint32_t block_roots[kExpandItems + 1];
  const uint64_t begin = uint64_t{blockIdx.x} * kExpandItems;
  const uint64_t merged = uint64_t{n} + children;
  const uint64_t end = begin + kExpandItems < merged ? begin + kExpandItems : merged;
  const uint32_t first_parent = splits[blockIdx.x];
  const uint32_t parent_count = splits[blockIdx.x + 1] - first_parent;
  const auto first_child = static_cast<uint32_t>(begin - first_parent);
  const auto end_child = static_cast<uint32_t>(end - splits[blockIdx.x + 1]);

  for (uint32_t k = threadIdx.x; k < parent_count; k += blockDim.x) block_offsets[k] = offsets[first_parent + k];
  // Block 0 has no parent before it; its first child's parent is parent 0, which it holds.
  if (roots)
    for (uint32_t k = threadIdx.x; k <= parent_count; k += blockDim.x)
      if (first_parent + k > 0) block_roots[k] = roots[first_parent + k - 1];
  __syncthreads();

  for (uint32_t j = first_child + threadIdx.x; j < end_child; j += blockDim.x) {
    // below = #{k : block_offsets[k] <= j}; the parent is the last of those starts, or the one before.
    uint32_t below = 0, hi = parent_count;
    while (below < hi) {
      const uint32_t mid = below + (hi - below) / 2;
      if (block_offsets[mid] <= j)
        below = mid + 1;
      else
        hi = mid;
    }
    parents[j] = first_parent + below - 1;
    if (roots) child_roots[j] = block_roots[below];
  }
}

// Launches partition and expand for n > 0 parents with children > 0 children; splits holds
// expand_blocks(n, children) + 1 entries. Returns the launch status.
inline cudaError_t expand(const uint32_t* offsets, const uint32_t* roots, uint32_t n, uint32_t children,
                          uint32_t* splits, uint32_t* parents, uint32_t* child_roots, cudaStream_t stream) {
  const uint32_t blocks = expand_blocks(n, children);
  constexpr uint32_t kPartitionThreads = 256;
  partition_kernel<<<(blocks + kPartitionThreads) / kPartitionThreads, kPartitionThreads, 0, stream>>>(
      offsets, n, children, blocks, splits);
  expand_kernel<<<blocks, kExpandThreads, 0, stream>>>(offsets, roots, n, children, splits, parents, child_roots);
  return cudaGetLastError();
}

} // namespace gsdk::core::bfs
