// evaluation.cu - snake's gsdk.evaluation.v1 on a CUDA device: one thread per state over rules/evaluation.hpp, the
// function the CPU table calls, so the values agree to the bit. Each thread keeps two bitsets of the cube in local
// memory (2 KB in dimension 13); a block-wide flood fill would be faster, this is the correct first form.
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "rules/evaluation.hpp"
#include "snake_game.hpp"

namespace snake {

namespace {

constexpr unsigned kBlock = 128;

__global__ void evaluation_kernel(const State* states, uint32_t count, Evaluation kind, int32_t* values) {
  for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += uint64_t{gridDim.x} * blockDim.x)
    values[k] = evaluate(kind, states[k]);
}

} // namespace

void Game::cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream, int32_t* values) const {
  if (count == 0) return;
  if (!states || !values)
    throw gsdk::PluginError("snake CUDA evaluation: states and values must be device memory, got NULL");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const unsigned blocks = gsdk::cuda::grid_size<evaluation_kernel>(device, kBlock, count, 0, cuda::kOwner);
  evaluation_kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, evaluation_, values);
  cuda::check(cudaGetLastError(), "launching the evaluation kernel");
}

} // namespace snake
