// env_kernels.cu - a VectorEnv's own device work: which action is illegal, random legal actions, and the ends of
// episodes.
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

__device__ void copy_bytes(uint8_t* to, const uint8_t* from, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) to[i] = from[i];
}

__global__ void end_episodes_kernel(EpisodeEnds e) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= e.count) return;
  const auto mover = static_cast<uint32_t>(e.players_before[k]);
  e.actor_rewards[k] = e.rewards[static_cast<uint64_t>(k) * e.player_count + mover];
  e.truncated[k] = 0;
  e.ended[k] = e.terminated[k];
  if (e.terminated[k]) {
    if (e.episode_steps) e.episode_steps[k] = 0;
    return;
  }
  uint8_t* state = e.states + static_cast<uint64_t>(k) * e.state_size;
  if (e.final_states) copy_bytes(e.final_states + static_cast<uint64_t>(k) * e.state_size, state, e.state_size);
  if (e.max_episode_steps == 0 || ++e.episode_steps[k] < e.max_episode_steps) return;
  e.truncated[k] = 1;
  e.ended[k] = 1;
  e.episode_steps[k] = 0;
  copy_bytes(state, e.initial_state, e.state_size);
  e.players[k] = *e.initial_player;
  copy_bytes(e.legal + static_cast<uint64_t>(k) * e.action_count, e.initial_legal, e.action_count);
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

void end_episodes(const EpisodeEnds& ends, void* stream) {
  end_episodes_kernel<<<blocks(ends.count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(ends);
  check_launch("the episode ends");
}


} // namespace gsdk::core::env_kernels
