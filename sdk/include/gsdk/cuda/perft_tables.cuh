// perft_tables.cuh - gsdk.cuda_perft.v1 for any game with PerftRules (gsdk/nested/perft_rules.hpp): the kernels
// of the core's breadth-first GPU perft, one thread per position (apply_moves a warp per child for states over
// 512 bytes, staged_states.cuh), the last kPerftLeafPlies plies counted in place. A plugin's cuda_perft_* members each
// call one function here and declare kCudaPerftLeafPlies = gsdk::nested::kPerftLeafPlies.
//  - count_leaves:              perft 1 or 2 of each state;
//  - generate_moves:            each state's legal moves, in legal_moves order, from offsets[i] on;
//  - apply_moves:               child j = states[parents[j]] after moves[j], with its perft 1 when asked;
//  - count_leaves_after_moves:  apply_moves and count_leaves fused, the children never stored.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/cuda/staged_states.cuh"
#include "gsdk/nested/perft_rules.hpp"

namespace gsdk::cuda {

using nested::kPerftLeafPlies;
using nested::PerftRules;

namespace perft_detail {

constexpr int kBlock = 256;

inline unsigned blocks(uint32_t threads) {
  return (threads + kBlock - 1) / kBlock;
}

template <PerftRules R>
__global__ void count_kernel(R rules, const typename R::State* states, uint32_t count, uint32_t plies,
                             uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  counts[i] = nested::perft_leaves(rules, states[i], plies);
}

template <PerftRules R>
__global__ void generate_kernel(R rules, const typename R::State* states, uint32_t count, const uint32_t* offsets,
                                uint32_t* moves) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint32_t* out = moves + offsets[i];
  for (typename R::Moves rest = rules.legal_moves(states[i]); !rest.empty(); rest = rest.without_first())
    *out++ = rest.first();
}

template <PerftRules R>
__global__ void apply_kernel(R rules, const typename R::State* states, const uint32_t* parents, const uint32_t* moves,
                             uint32_t count, typename R::State* children, uint32_t* child_counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  typename R::State child = states[parents[j]];
  rules.play(child, moves[j]);
  children[j] = child;
  if (child_counts) child_counts[j] = nested::perft1(rules, child);
}

// apply_kernel for large states (staged_states.cuh): a warp a child, its parent staged in shared memory.
template <PerftRules R>
__global__ void staged_apply_kernel(R rules, const typename R::State* states, const uint32_t* parents,
                                    const uint32_t* moves, uint32_t count, typename R::State* children,
                                    uint32_t* child_counts) {
  using State = typename R::State;
  const unsigned warp = threadIdx.x / 32;
  const uint64_t j = uint64_t{blockIdx.x} * staged::kWarps<State> + warp;
  if (j >= count) return;
  State* slot = staged::slots<State>() + warp;
  staged::stage(states + parents[j], children + j, slot, [&](State& child) {
    rules.play(child, moves[j]);
    if (child_counts) child_counts[j] = nested::perft1(rules, child);
  });
}

template <PerftRules R>
__global__ void fused_kernel(R rules, const typename R::State* states, const uint32_t* parents, const uint32_t* moves,
                             uint32_t count, uint32_t plies, uint32_t* counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  typename R::State child = states[parents[j]];
  rules.play(child, moves[j]);
  counts[j] = nested::perft_leaves(rules, child, plies);
}

inline void check_plies(uint32_t plies, const char* owner, const char* entry) {
  if (plies < 1 || plies > kPerftLeafPlies)
    throw PluginError(std::string(owner) + ": " + entry + " counts 1 to " + std::to_string(kPerftLeafPlies) +
                      " plies, got " + std::to_string(plies));
}

} // namespace perft_detail

template <PerftRules R>
void perft_count_leaves(const R& rules, const typename R::State* states, uint32_t count, uint32_t plies,
                        uint32_t* counts, void* stream) {
  perft_detail::check_plies(plies, R::kOwner, "count_leaves");
  if (count == 0) return;
  perft_detail::count_kernel<R>
      <<<perft_detail::blocks(count), perft_detail::kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
          rules, states, count, plies, counts);
  check(cudaGetLastError(), R::kOwner, "launching count_leaves");
}

template <PerftRules R>
void perft_generate_moves(const R& rules, const typename R::State* states, uint32_t count, const uint32_t* offsets,
                          uint32_t* moves, void* stream) {
  if (count == 0) return;
  perft_detail::generate_kernel<R>
      <<<perft_detail::blocks(count), perft_detail::kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
          rules, states, count, offsets, moves);
  check(cudaGetLastError(), R::kOwner, "launching generate_moves");
}

template <PerftRules R>
void perft_apply_moves(const R& rules, const typename R::State* states, const uint32_t* parents, const uint32_t* moves,
                       uint32_t count, typename R::State* children, uint32_t* child_counts, void* stream) {
  if (count == 0) return;
  using State = typename R::State;
  if constexpr (staged::kStaged<State>)
    perft_detail::staged_apply_kernel<R>
        <<<staged::staged_blocks<State>(count), 32 * staged::kWarps<State>, 0, static_cast<cudaStream_t>(stream)>>>(
            rules, states, parents, moves, count, children, child_counts);
  else
    perft_detail::apply_kernel<R>
        <<<perft_detail::blocks(count), perft_detail::kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
            rules, states, parents, moves, count, children, child_counts);
  check(cudaGetLastError(), R::kOwner, "launching apply_moves");
}

template <PerftRules R>
void perft_count_leaves_after_moves(const R& rules, const typename R::State* states, const uint32_t* parents,
                                    const uint32_t* moves, uint32_t count, uint32_t plies, uint32_t* counts,
                                    void* stream) {
  perft_detail::check_plies(plies, R::kOwner, "count_leaves_after_moves");
  if (count == 0) return;
  perft_detail::fused_kernel<R>
      <<<perft_detail::blocks(count), perft_detail::kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
          rules, states, parents, moves, count, plies, counts);
  check(cudaGetLastError(), R::kOwner, "launching count_leaves_after_moves");
}

} // namespace gsdk::cuda
