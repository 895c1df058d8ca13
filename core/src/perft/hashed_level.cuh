// hashed_level.cuh - the kernels of a hashed level of the GPU perft engine: keys of the level's states, equal states
// merged, the table looked up, and the counts stored once the level's children are counted. Device code for the
// core's CUDA perft files, which alone include it.
//
// Merging: every state writes its index into a slot picked by its key (the last writer wins), then each reads the
// slot back: a state that finds another index whose key equals its own (all 128 bits) takes that state's count
// instead of expanding. The winner of a slot reads its own index, so a state is never linked to one that is itself
// linked. A slot two different keys share merges neither: a missed merge costs only speed.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "perft/cuda_table.cuh"
#include "perft/state_key.hpp"

namespace gsdk::core::hashed {

inline constexpr int kThreads = 256;
inline constexpr uint32_t kLinkedToTable = 0xffffffffu; // link of a state whose count the table had

inline unsigned blocks_for(uint64_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

static __global__ void keys_kernel(const unsigned char* states, uint32_t n, uint32_t state_size, uint32_t depth,
                            perft_key::Key* keys) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned char* s = states + uint64_t{i} * state_size;
  keys[i] = state_size % 8 == 0 ? perft_key::aligned_state_key(reinterpret_cast<const uint64_t*>(s), state_size / 8, depth)
                                : perft_key::state_key(s, state_size, depth);
}

static __global__ void claim_slots_kernel(const perft_key::Key* keys, uint32_t n, uint32_t* slots, uint64_t mask) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  slots[keys[i].hi & mask] = i;
}

// For each state: link[i] = j when state j (j != i) is equal and expands in its place, kLinkedToTable when the
// table holds its count (then in counts[i]), else i (it expands: counts[i] = 0, to be added to). States that do not
// expand get no moves (when the level has move counts: a leaf level has none). merged[0] counts the states linked
// to another.
static __global__ void classify_kernel(const perft_key::Key* keys, uint32_t n, const uint32_t* slots, uint64_t mask,
                                cuda_table::View table, uint32_t* move_counts, uint32_t* link,
                                unsigned long long* counts, unsigned long long* merged) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool live = i < n;
  unsigned probed = 0, hit = 0, linked = 0;
  if (live) {
    const perft_key::Key key = keys[i];
    const uint32_t j = slots[key.hi & mask];
    uint64_t known = 0;
    if (j != i && keys[j].lo == key.lo && keys[j].hi == key.hi) {
      link[i] = j;
      if (move_counts) move_counts[i] = 0;
      linked = 1;
    } else if (probed = 1, cuda_table::probe(table, key, known)) {
      hit = 1;
      link[i] = kLinkedToTable;
      counts[i] = known;
      if (move_counts) move_counts[i] = 0;
    } else {
      link[i] = i;
      counts[i] = 0;
    }
  }
  cuda_table::count(table, cuda_table::kProbes, probed);
  cuda_table::count(table, cuda_table::kHits, hit);
  for (int offset = 16; offset > 0; offset >>= 1) linked += __shfl_down_sync(cuda_table::kFullWarp, linked, offset);
  if ((threadIdx.x & 31) == 0 && linked != 0) atomicAdd(merged, static_cast<unsigned long long>(linked));
}

// Once the expanding states' counts are whole: stores them, and copies them to the states linked to them.
static __global__ void finish_kernel(const perft_key::Key* keys, uint32_t n, const uint32_t* link, cuda_table::View table,
                              unsigned long long* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned stored = 0, filled = 0;
  if (i < n) {
    const uint32_t j = link[i];
    if (j == i) {
      const unsigned written = cuda_table::store(table, keys[i], counts[i]);
      stored = written != 0;
      filled = written == 2;
    } else if (j != kLinkedToTable) {
      counts[i] = counts[j];
    }
  }
  cuda_table::count(table, cuda_table::kStores, stored);
  cuda_table::count(table, cuda_table::kFills, filled);
}

// flags[i] = 1 for the states that expand (or are counted whole) themselves.
static __global__ void miss_flags_kernel(const uint32_t* link, uint32_t n, uint32_t* flags) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = link[i] == i;
}

// dense[positions[i]] = states[i], dense_moves[positions[i]] = moves[i] (when there are move counts) and
// index[positions[i]] = i for the flagged states.
static __global__ void gather_kernel(const unsigned char* states, const uint32_t* moves, uint32_t state_size,
                                     const uint32_t* flags, const uint32_t* positions, uint32_t n,
                                     unsigned char* dense, uint32_t* dense_moves, uint32_t* index) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flags[i]) return;
  const uint32_t to = positions[i];
  index[to] = i;
  if (moves) dense_moves[to] = moves[i];
  if (state_size % 8 == 0) {
    const auto* from = reinterpret_cast<const uint64_t*>(states + uint64_t{i} * state_size);
    auto* into = reinterpret_cast<uint64_t*>(dense + uint64_t{to} * state_size);
    for (uint32_t w = 0; w < state_size / 8; ++w) into[w] = from[w];
    return;
  }
  for (uint32_t b = 0; b < state_size; ++b) dense[uint64_t{to} * state_size + b] = states[uint64_t{i} * state_size + b];
}

// counts[index[k]] = dense_counts[k].
static __global__ void scatter_kernel(const unsigned long long* dense_counts, const uint32_t* index, uint32_t m,
                               unsigned long long* counts) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) counts[index[k]] = dense_counts[k];
}

// counts[i] = small[i], widened.
static __global__ void widen_kernel(const uint32_t* small, uint32_t n, unsigned long long* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[i] = small[i];
}

} // namespace gsdk::core::hashed
