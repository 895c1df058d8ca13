// map_states.cuh - one host-and-device function applied to every state of a batch in device memory, one thread per
// state (a warp per state for large ones, staged_states.cuh): what a plugin's per-state device tables
// (gsdk.perft_keys.v1's cuda_canonical, ...) are made of, so that a game binds its rules' own function in a few lines
// and the device writes exactly the bytes the host's loop writes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/cuda/staged_states.cuh"

namespace gsdk::cuda {

namespace detail {

// in and out may be the same array: each thread reads its state whole before writing it.
template <typename State, typename Op>
__global__ void map_states_kernel(const State* in, uint32_t count, State* out, Op op) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  State s = in[i];
  op(s);
  out[i] = s;
}

// map_states_kernel for large states (staged_states.cuh): a warp a state.
template <typename State, typename Op>
__global__ void staged_map_states_kernel(const State* in, uint32_t count, State* out, Op op) {
  const unsigned warp = threadIdx.x / 32;
  const uint64_t i = uint64_t{blockIdx.x} * staged::kWarps<State> + warp;
  if (i >= count) return;
  staged::stage(in + i, out + i, staged::slots<State>() + warp, op);
}

} // namespace detail

// out[k] = in[k] after op(in[k]) (op: a copyable object whose `void operator()(State&) const` is __host__
// __device__) for k < count, enqueued on `stream` (a cudaStream_t) without waiting. Throws a PluginError naming
// `owner` when the launch fails.
template <typename State, typename Op>
void map_states(const State* in, uint32_t count, State* out, Op op, void* stream, const char* owner) {
  if (count == 0) return;
  if constexpr (staged::kStaged<State>) {
    detail::staged_map_states_kernel<<<staged::staged_blocks<State>(count), 32 * staged::kWarps<State>, 0,
                                       static_cast<cudaStream_t>(stream)>>>(in, count, out, op);
    check(cudaGetLastError(), owner, "launching map_states");
    return;
  }
  constexpr unsigned kBlock = 256;
  const auto blocks = static_cast<unsigned>((uint64_t{count} + kBlock - 1) / kBlock);
  detail::map_states_kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(in, count, out, op);
  check(cudaGetLastError(), owner, "launching map_states");
}

} // namespace gsdk::cuda
