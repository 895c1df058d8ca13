// vector_env_cuda.cu - othello_vector_env on GPU 0: the batched step and the observation fill, each timed with a
// pair of events per round; between them a kernel draws each game's next legal code from its position (not timed).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "vector_env_cuda.hpp"

namespace othello::bench {

namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "othello_vector_env: %s failed: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

void check(int32_t status, const char* error) {
  if (status == GSDK_OK) return;
  std::fprintf(stderr, "othello_vector_env: %s\n", error);
  std::exit(1);
}

__global__ void draw_actions(const Position* states, uint32_t count, uint32_t round, uint32_t* actions) {
  for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += uint64_t{gridDim.x} * blockDim.x)
    actions[k] = drawn_code(states[k], gsdk::rng::SplitMix64((k << 20) ^ round).next());
}

template <typename T> T* device_array(size_t n) {
  void* p = nullptr;
  check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc");
  return static_cast<T*>(p);
}

} // namespace

void measure_cuda(const VectorEnvTables& t, uint32_t envs, uint32_t rounds) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("cuda: no GPU\n");
    return;
  }
  auto* states = device_array<Position>(envs);
  auto* actions = device_array<uint32_t>(envs);
  auto* rewards = device_array<float>(2 * size_t{envs});
  auto* terminated = device_array<uint8_t>(envs);
  auto* players = device_array<int32_t>(envs);
  auto* legal = device_array<uint8_t>(size_t{envs} * kCodeCount);
  auto* observations = device_array<uint8_t>(size_t{envs} * kObservationBytes);
  char error[512] = {};
  check(t.steps->cuda_reset(t.instance, states, envs, 0, nullptr, players, legal, error, sizeof error), error);
  std::vector<cudaEvent_t> events(3 * size_t{rounds});
  for (cudaEvent_t& e : events) check(cudaEventCreate(&e), "cudaEventCreate");
  const unsigned blocks = (envs + 255) / 256;
  for (uint32_t round = 0; round < rounds; ++round) {
    draw_actions<<<blocks, 256>>>(states, envs, round, actions);
    check(cudaEventRecord(events[3 * round]), "cudaEventRecord");
    check(t.steps->cuda_step(t.instance, states, actions, envs, 0, nullptr, rewards, terminated, players, legal, error,
                             sizeof error),
          error);
    check(cudaEventRecord(events[3 * round + 1]), "cudaEventRecord");
    check(t.observations->cuda_fill(t.instance, states, envs, 0, nullptr, observations, error, sizeof error), error);
    check(cudaEventRecord(events[3 * round + 2]), "cudaEventRecord");
  }
  check(cudaDeviceSynchronize(), "the rounds");
  double step_ms = 0, fill_ms = 0;
  for (uint32_t round = 0; round < rounds; ++round) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, events[3 * round], events[3 * round + 1]), "cudaEventElapsedTime");
    step_ms += ms;
    check(cudaEventElapsedTime(&ms, events[3 * round + 1], events[3 * round + 2]), "cudaEventElapsedTime");
    fill_ms += ms;
  }
  const double env_steps = double{1} * envs * rounds;
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("cuda, %s, %u envs x %u steps: step %.3g env-steps/s, fill %.3g states/s, step + fill %.3g env-steps/s\n",
              properties.name, envs, rounds, env_steps / (step_ms * 1e-3), env_steps / (fill_ms * 1e-3),
              env_steps / ((step_ms + fill_ms) * 1e-3));
  for (cudaEvent_t e : events) cudaEventDestroy(e);
  for (void* p : {static_cast<void*>(states), static_cast<void*>(actions), static_cast<void*>(rewards),
                  static_cast<void*>(terminated), static_cast<void*>(players), static_cast<void*>(legal),
                  static_cast<void*>(observations)})
    cudaFree(p);
}

} // namespace othello::bench
