// observations.cu - snake's gsdk.observations.v1 on a CUDA device: one thread per byte of the batch (consecutive
// threads write consecutive bytes), the blocked-vertex bit or the head, as the CPU's fill writes them.
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "snake_game.hpp"

namespace snake {

namespace {

constexpr int kBlock = 256;

__global__ void observation_kernel(const State* states, uint64_t bytes, uint32_t vertices, uint8_t* observations) {
  const uint64_t per_state = 2 * uint64_t{vertices};
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < bytes; i += uint64_t{gridDim.x} * blockDim.x) {
    const State& s = states[i / per_state];
    const auto v = static_cast<uint32_t>(i % per_state);
    observations[i] = v < vertices ? static_cast<uint8_t>((s.blocked[v / 64] >> (v % 64)) & 1u)
                                   : (v - vertices == s.head ? 1 : 0);
  }
}

} // namespace

void Game::cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const uint32_t vertices = 1u << rules_.dimension;
  const uint64_t bytes = uint64_t{count} * 2 * vertices;
  const unsigned blocks = gsdk::cuda::grid_size<observation_kernel>(device, kBlock, bytes, 0, cuda::kOwner);
  observation_kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, bytes, vertices,
                                                                              static_cast<uint8_t*>(out));
  cuda::check(cudaGetLastError(), "launching the observation kernel");
}

} // namespace snake
