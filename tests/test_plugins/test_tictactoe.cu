// test_tictactoe.cu - test_tictactoe's CUDA tables of ABI 1.11 (batched steps, reset, observations), one thread per
// game over the rules the host plays (test_tictactoe_rules.hpp): plain, since they exist to test the core's CUDA
// vector environment, not to be fast.
#include <cuda_runtime.h>

#include <string>

#include "gsdk/plugin.hpp"
#include "test_tictactoe_rules.hpp"

namespace test_tictactoe {

namespace {

constexpr unsigned kThreads = 128;

unsigned blocks_for(uint32_t count) {
  return (count + kThreads - 1) / kThreads;
}

void check_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("test_tictactoe CUDA: ") + kernel + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

__global__ void step_kernel(Rules rules, State* states, const uint32_t* actions, uint32_t count, float* rewards,
                            uint8_t* terminated, int32_t* players, uint8_t* legal) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  rules.step(states[k], actions[k], rewards + 2 * k, terminated[k], players[k],
             legal + static_cast<uint64_t>(k) * rules.cells());
}

__global__ void reset_kernel(Rules rules, State* states, uint32_t count, int32_t* players, uint8_t* legal) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  rules.initial_state(states[k]);
  rules.describe(states[k], players[k], legal + static_cast<uint64_t>(k) * rules.cells());
}

__global__ void fill_kernel(Rules rules, const State* states, uint32_t count, float* observations) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  rules.observe(states[k], observations + static_cast<uint64_t>(k) * 2 * rules.cells());
}

} // namespace

void cuda_step(const Rules& rules, State* states, const uint32_t* actions, uint32_t count, void* stream, float* rewards,
               uint8_t* terminated, int32_t* players, uint8_t* legal) {
  step_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      rules, states, actions, count, rewards, terminated, players, legal);
  check_launch("step");
}

void cuda_reset(const Rules& rules, State* states, uint32_t count, void* stream, int32_t* players, uint8_t* legal) {
  reset_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(rules, states, count, players,
                                                                                      legal);
  check_launch("reset");
}

void cuda_fill(const Rules& rules, const State* states, uint32_t count, void* stream, float* observations) {
  fill_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(rules, states, count,
                                                                                     observations);
  check_launch("fill");
}

} // namespace test_tictactoe
