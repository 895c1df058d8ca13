// environment.cu - othello's vectorised environment on a CUDA device: observations, batched steps and resets, one
// thread per game running rules/environment.hpp (the CPU's functions, so the results agree to the bit). The byte
// rows (legal masks, observations) go out through shared memory so that the stores of a warp are coalesced.
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "gsdk/cuda/block_rows.cuh"
#include "othello_game.hpp"

namespace othello {

namespace {

constexpr uint32_t kBlock = 128;
using LegalRows = gsdk::cuda::BlockRows<kCodeCount, kBlock>;
using ObservationRows = gsdk::cuda::BlockRows<kObservationBytes, kBlock>;

// Grid-stride over tiles of kBlock games, so that every thread of a block reaches each flush together.
template <typename Body> __device__ void for_each_tile(uint32_t count, Body body) {
  for (uint64_t first = uint64_t{blockIdx.x} * kBlock; first < count; first += uint64_t{gridDim.x} * kBlock) {
    const uint64_t k = first + threadIdx.x;
    const auto rows = static_cast<uint32_t>(count - first < kBlock ? count - first : kBlock);
    body(first, k, k < count, rows);
  }
}

__global__ void __launch_bounds__(kBlock) step_kernel(Position* states, const uint32_t* actions, uint32_t count,
                                                      Convention convention, float* rewards, uint8_t* terminated,
                                                      int32_t* players, uint8_t* legal, Position* final_states) {
  __shared__ alignas(16) uint8_t shared[LegalRows::kBytes];
  const LegalRows rows{shared};
  for_each_tile(count, [&](uint64_t first, uint64_t k, bool active, uint32_t tile_rows) {
    if (active) {
      Position p = states[k];
      StepOutcome outcome;
      // An action that is no legal move's code leaves its game as it was.
      if (!step(p, actions[k], convention, outcome, final_states ? final_states + k : nullptr)) outcome = StepOutcome{false, 0, legal_moves(p)};
      states[k] = p;
      write_step(p, outcome, rewards + 2 * k, terminated + k, players + k, rows.row(threadIdx.x));
    }
    rows.flush(legal + first * kCodeCount, tile_rows);
  });
}

__global__ void __launch_bounds__(kBlock) reset_kernel(Position* states, uint32_t count, int32_t* players,
                                                       uint8_t* legal) {
  __shared__ alignas(16) uint8_t shared[LegalRows::kBytes];
  const LegalRows rows{shared};
  for_each_tile(count, [&](uint64_t first, uint64_t k, bool active, uint32_t tile_rows) {
    if (active) {
      const Position p = start_position();
      states[k] = p;
      players[k] = static_cast<int32_t>(p.side);
      write_legal_codes(legal_moves(p), rows.row(threadIdx.x));
    }
    rows.flush(legal + first * kCodeCount, tile_rows);
  });
}

__global__ void __launch_bounds__(kBlock) observation_kernel(const Position* states, uint32_t count,
                                                             uint8_t* observations) {
  __shared__ alignas(16) uint8_t shared[ObservationRows::kBytes];
  const ObservationRows rows{shared};
  for_each_tile(count, [&](uint64_t first, uint64_t k, bool active, uint32_t tile_rows) {
    if (active) write_observation(states[k], rows.row(threadIdx.x));
    rows.flush(observations + first * kObservationBytes, tile_rows);
  });
}

template <auto Kernel> unsigned blocks_for(int32_t device, uint32_t count) {
  return gsdk::cuda::grid_size<Kernel>(device, kBlock, count, 0, cuda::kOwner);
}

cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

} // namespace

void Game::cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  observation_kernel<<<blocks_for<observation_kernel>(device, count), kBlock, 0, as_stream(stream)>>>(
      states, count, static_cast<uint8_t*>(out));
  cuda::check(cudaGetLastError(), "launching the observation kernel");
}

void Game::cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
                           float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                           State* final_states) const {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  step_kernel<<<blocks_for<step_kernel>(device, count), kBlock, 0, as_stream(stream)>>>(
      states, actions, count, convention_, rewards, terminated, players, legal, final_states);
  cuda::check(cudaGetLastError(), "launching the batched step kernel");
}

void Game::cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
                            uint8_t* legal) const {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  reset_kernel<<<blocks_for<reset_kernel>(device, count), kBlock, 0, as_stream(stream)>>>(states, count, players,
                                                                                          legal);
  cuda::check(cudaGetLastError(), "launching the batched reset kernel");
}

} // namespace othello
