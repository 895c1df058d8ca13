// env_kernels.cu - a VectorEnv's own device work: which action is illegal, and random legal actions.
#include "environments/env_kernels.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "environments/env_streams.hpp"

namespace gsdk::core::env_kernels {

namespace {

constexpr unsigned kThreads = 256;

__global__ void reset_word(uint32_t* word) {
  *word = UINT32_MAX;
}

__global__ void first_illegal_kernel(const uint32_t* actions, const uint8_t* legal, uint32_t count,
                                     uint32_t action_count, uint32_t* first_bad) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const uint32_t action = actions[k];
  if (action >= action_count || legal[static_cast<uint64_t>(k) * action_count + action] == 0) atomicMin(first_bad, k);
}

__global__ void random_actions_kernel(uint64_t seed, uint64_t call, const uint8_t* legal, uint32_t count,
                                      uint32_t action_count, uint32_t* codes) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  codes[k] =
      env_streams::random_legal_code(seed, k, call, legal + static_cast<uint64_t>(k) * action_count, action_count);
}

unsigned blocks(uint32_t count) {
  return (count + kThreads - 1) / kThreads;
}

void check_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: launching ") + kernel + " failed: " + cudaGetErrorString(status));
}

} // namespace

void find_first_illegal(const uint32_t* actions, const uint8_t* legal, uint32_t count, uint32_t action_count,
                        uint32_t* first_bad, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  reset_word<<<1, 1, 0, s>>>(first_bad);
  first_illegal_kernel<<<blocks(count), kThreads, 0, s>>>(actions, legal, count, action_count, first_bad);
  check_launch("the action check");
}

void random_actions(uint64_t seed, uint64_t call, const uint8_t* legal, uint32_t count, uint32_t action_count,
                    uint32_t* codes, void* stream) {
  random_actions_kernel<<<blocks(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(seed, call, legal, count,
                                                                                           action_count, codes);
  check_launch("random actions");
}

} // namespace gsdk::core::env_kernels
