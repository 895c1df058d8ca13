// environment_tables.cuh - gsdk.batched_steps.v1's CUDA step and reset and gsdk.observations.v1's CUDA fill for any
// game with EnvironmentRules (gsdk/environments/environment_rules.hpp): one thread per game running the CPU's
// step_game and reset_game (gsdk/environments/batched_steps.hpp), so the results agree to the bit. The byte rows
// (legal masks, observations) go out through shared memory (block_rows.cuh), so that a warp's stores are coalesced.
// A plugin's cuda_step_batch, cuda_reset_batch and cuda_fill_observations each call one function here.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gsdk/cuda/block_rows.cuh"
#include "gsdk/cuda/launch.cuh"
#include "gsdk/environments/batched_steps.hpp"

namespace gsdk::cuda {

using environments::EnvironmentRules;

namespace environment_detail {

constexpr uint32_t kBlock = 128;

// Grid-stride over tiles of kBlock games, so that every thread of a block reaches each flush together.
template <typename Body> __device__ void for_each_tile(uint32_t count, Body body) {
  for (uint64_t first = uint64_t{blockIdx.x} * kBlock; first < count; first += uint64_t{gridDim.x} * kBlock) {
    const uint64_t k = first + threadIdx.x;
    const auto rows = static_cast<uint32_t>(count - first < kBlock ? count - first : kBlock);
    body(first, k, k < count, rows);
  }
}

template <EnvironmentRules R>
__global__ void __launch_bounds__(kBlock)
    step_kernel(R rules, typename R::State* states, const uint32_t* actions, uint32_t count, float* rewards,
                uint8_t* terminated, int32_t* players, uint8_t* legal, typename R::State* final_states) {
  using LegalRows = BlockRows<R::kCodeCount, kBlock>;
  __shared__ alignas(16) uint8_t shared[LegalRows::kBytes];
  const LegalRows rows{shared};
  for_each_tile(count, [&](uint64_t first, uint64_t k, bool active, uint32_t tile_rows) {
    if (active) {
      typename R::State s = states[k];
      environments::step_game(rules, s, actions[k], rewards + R::kPlayerCount * k, terminated + k, players + k,
                              rows.row(threadIdx.x), final_states ? final_states + k : nullptr);
      states[k] = s;
    }
    rows.flush(legal + first * R::kCodeCount, tile_rows);
  });
}

template <EnvironmentRules R>
__global__ void __launch_bounds__(kBlock)
    reset_kernel(R rules, typename R::State* states, uint32_t count, int32_t* players, uint8_t* legal) {
  using LegalRows = BlockRows<R::kCodeCount, kBlock>;
  __shared__ alignas(16) uint8_t shared[LegalRows::kBytes];
  const LegalRows rows{shared};
  for_each_tile(count, [&](uint64_t first, uint64_t k, bool active, uint32_t tile_rows) {
    if (active) {
      typename R::State s;
      environments::reset_game(rules, s, players + k, rows.row(threadIdx.x));
      states[k] = s;
    }
    rows.flush(legal + first * R::kCodeCount, tile_rows);
  });
}

template <EnvironmentRules R>
__global__ void __launch_bounds__(kBlock)
    observation_kernel(R rules, const typename R::State* states, uint32_t count, uint8_t* observations) {
  using ObservationRows = BlockRows<R::kObservationBytes, kBlock>;
  __shared__ alignas(16) uint8_t shared[ObservationRows::kBytes];
  const ObservationRows rows{shared};
  for_each_tile(count, [&](uint64_t first, uint64_t k, bool active, uint32_t tile_rows) {
    if (active) rules.write_observation(states[k], rows.row(threadIdx.x));
    rows.flush(observations + first * R::kObservationBytes, tile_rows);
  });
}

template <auto Kernel> unsigned blocks(int32_t device, uint32_t count, const char* owner) {
  return grid_size<Kernel>(device, kBlock, count, 0, owner);
}

} // namespace environment_detail

// cuda_step_batch (final_states null) and cuda_step_batch keeping final states: every array in device memory, the
// kernel queued on `stream`.
template <EnvironmentRules R>
void step_batch(const R& rules, typename R::State* states, const uint32_t* actions, uint32_t count, int32_t device,
                void* stream, float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                typename R::State* final_states = nullptr) {
  if (count == 0) return;
  check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  constexpr auto kernel = environment_detail::step_kernel<R>;
  kernel<<<environment_detail::blocks<kernel>(device, count, R::kOwner), environment_detail::kBlock, 0,
           static_cast<cudaStream_t>(stream)>>>(rules, states, actions, count, rewards, terminated, players, legal,
                                                final_states);
  check(cudaGetLastError(), R::kOwner, "launching the batched step kernel");
}

// cuda_reset_batch: the initial state in states[0..count), with players and legal as a step writes them.
template <EnvironmentRules R>
void reset_batch(const R& rules, typename R::State* states, uint32_t count, int32_t device, void* stream,
                 int32_t* players, uint8_t* legal) {
  if (count == 0) return;
  check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  constexpr auto kernel = environment_detail::reset_kernel<R>;
  kernel<<<environment_detail::blocks<kernel>(device, count, R::kOwner), environment_detail::kBlock, 0,
           static_cast<cudaStream_t>(stream)>>>(rules, states, count, players, legal);
  check(cudaGetLastError(), R::kOwner, "launching the batched reset kernel");
}

// cuda_fill_observations: kObservationBytes a state into `out`, in device memory.
template <EnvironmentRules R>
void fill_observations(const R& rules, const typename R::State* states, uint32_t count, int32_t device, void* stream,
                       void* out) {
  if (count == 0) return;
  check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  constexpr auto kernel = environment_detail::observation_kernel<R>;
  kernel<<<environment_detail::blocks<kernel>(device, count, R::kOwner), environment_detail::kBlock, 0,
           static_cast<cudaStream_t>(stream)>>>(rules, states, count, static_cast<uint8_t*>(out));
  check(cudaGetLastError(), R::kOwner, "launching the observation kernel");
}

} // namespace gsdk::cuda
