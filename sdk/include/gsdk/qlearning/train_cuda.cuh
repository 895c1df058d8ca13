// train_cuda.cuh - the CUDA trainer: a whole gsdk_qlearning_request in one kernel launch, following
// semantics.hpp bit for bit (or, in atomic mode, racing).
//
// One block per environment, one thread per agent (so at most 1024 agents). The table lives in shared
// memory when it fits (the 46 x 46 minefield's 34 KB does), with the per-state visit counters and the
// claim slots that order colliding updates: an agent whose (s, a) another agent of the same step also
// updates waits for the lower agents, claiming a slot by atomicMin, one round per collision depth.
// Episodes, steps and the end-of-episode test run on the device: no host round trip until the end.
//
// The environment type is the CPU trainer's (train_cpu.hpp) with its members callable on the device;
// a plugin copies what its step reads to device memory and passes a copy that points there.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/plugin.hpp"
#include "gsdk/qlearning/semantics.hpp"

namespace gsdk::qlearning {

namespace cuda_detail {

// Claim slots: a power of two above twice the most agents, so few distinct (s, a) share one.
inline constexpr uint32_t kClaimSlots = 2048;
inline constexpr uint32_t kFree = 0xffffffffu;

struct Launch {
  uint64_t seed;
  uint32_t first_environment, first_episode, episode_count, flags;
  float alpha, gamma;
  const uint32_t* thresholds;
  float* q;                 // the request's tables in device memory
  uint32_t* stats;          // environment_count * episode_count * GSDK_QL_STAT_COUNT
  unsigned long long* visits; // environment_count * state_count, or null
  const uint32_t* starts;
  uint32_t start_count;
  bool table_in_shared;
  bool visits_in_shared;
};

template <class Env> __global__ void train_kernel(Env env, Launch run) {
  extern __shared__ uint32_t shared_words[];
  const uint32_t e = blockIdx.x;
  const uint32_t agents = env.agent_count(), actions = env.action_count(), states = env.state_count();
  const uint32_t limit = env.step_limit();
  const uint64_t table_size = uint64_t{states} * actions;
  const bool shared_table = run.flags & GSDK_QL_SHARED_TABLE;
  const bool atomic = run.flags & GSDK_QL_ATOMIC_UPDATES;
  const bool first_max = run.flags & GSDK_QL_FIRST_MAX_TIES;
  float* global_q = run.q + (shared_table ? 0 : e * table_size);
  unsigned long long* global_visits = run.visits ? run.visits + uint64_t{e} * states : nullptr;

  uint32_t* claims = shared_words;
  uint32_t* visits = claims + kClaimSlots;
  float* q = run.table_in_shared ? reinterpret_cast<float*>(visits + (run.visits_in_shared ? states : 0)) : global_q;
  for (uint32_t i = threadIdx.x; i < kClaimSlots; i += blockDim.x) claims[i] = kFree;
  if (run.visits_in_shared)
    for (uint32_t i = threadIdx.x; i < states; i += blockDim.x) visits[i] = 0;
  if (run.table_in_shared)
    for (uint64_t i = threadIdx.x; i < table_size; i += blockDim.x) q[i] = global_q[i];
  __syncthreads();

  const uint32_t agent = threadIdx.x;
  for (uint32_t k = 0; k < run.episode_count; ++k) {
    const uint32_t threshold = run.thresholds[k];
    AgentStream random;
    uint32_t state = 0;
    bool alive = agent < agents;
    if (alive) {
      random = AgentStream(run.seed, run.first_environment + e, agent, run.first_episode + k);
      state = run.starts[scaled_index(random.next(), run.start_count)];
    }
    bool succeeded = false, failed = false;
    uint32_t steps = 0, agent_steps = 0;
    for (;;) {
      const uint32_t active = __syncthreads_count(alive);
      if (!episode_continues(steps, limit, active, agents)) break;
      agent_steps += active;
      Transition t{};
      uint64_t index = 0;
      float target = 0, before = 0;
      if (alive) {
        const float* row = q + uint64_t{state} * actions;
        const uint32_t action = choose_action(row, actions, random.next(), threshold, first_max);
        t = env.step(state, action);
        target = td_target(t, run.gamma, t.terminal ? 0.0f : row_max(q + uint64_t{t.next} * actions, actions));
        index = uint64_t{state} * actions + action;
        before = row[action];
      }
      __syncthreads(); // every read of this step precedes every write
      if (atomic) {
        if (alive) atomicAdd(q + index, run.alpha * (target - before));
      } else {
        bool pending = alive;
        const uint32_t slot = static_cast<uint32_t>(index) & (kClaimSlots - 1);
        while (__syncthreads_or(pending)) {
          if (pending) atomicMin(claims + slot, agent);
          __syncthreads();
          const bool won = pending && claims[slot] == agent;
          __syncthreads();
          if (won) {
            q[index] = updated_value(q[index], target, run.alpha);
            claims[slot] = kFree;
            pending = false;
          }
        }
      }
      if (alive) {
        if (run.visits_in_shared)
          atomicAdd(visits + t.next, 1u);
        else if (global_visits)
          atomicAdd(global_visits + t.next, 1ull);
        state = t.next;
        if (t.terminal) {
          alive = false;
          succeeded = t.reward > 0;
          failed = t.reward < 0;
        }
      }
      ++steps;
    }
    const uint32_t successes = __syncthreads_count(succeeded);
    const uint32_t failures = __syncthreads_count(failed);
    if (threadIdx.x == 0) {
      uint32_t* out = run.stats + (uint64_t{e} * run.episode_count + k) * GSDK_QL_STAT_COUNT;
      out[GSDK_QL_STAT_SUCCESSES] = successes;
      out[GSDK_QL_STAT_FAILURES] = failures;
      out[GSDK_QL_STAT_STEPS] = steps;
      out[GSDK_QL_STAT_AGENT_STEPS] = agent_steps;
    }
    // Shared counters are emptied every episode, so 32 bits never overflow.
    if (run.visits_in_shared && global_visits) {
      for (uint32_t i = threadIdx.x; i < states; i += blockDim.x) {
        global_visits[i] += visits[i];
        visits[i] = 0;
      }
    }
  }
  __syncthreads();
  if (run.table_in_shared)
    for (uint64_t i = threadIdx.x; i < table_size; i += blockDim.x) global_q[i] = q[i];
}

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw PluginError(std::string("CUDA Q-learning: ") + what + " failed: " + cudaGetErrorString(status),
                      status == cudaErrorMemoryAllocation ? GSDK_ERR_OUT_OF_MEMORY : GSDK_ERR_DEVICE);
}

// Two timing events, destroyed on every path out.
struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
};

inline uint64_t aligned(uint64_t bytes) { return (bytes + 255) & ~uint64_t{255}; }

struct ScratchLayout {
  uint64_t thresholds, q, stats, visits, total;
};

inline ScratchLayout scratch_layout(const gsdk_qlearning_request& r, uint32_t states, uint32_t actions) {
  const uint64_t tables = (r.flags & GSDK_QL_SHARED_TABLE) ? 1 : r.environment_count;
  ScratchLayout l{};
  l.thresholds = 0;
  l.q = aligned(uint64_t{r.episode_count} * 4);
  l.stats = l.q + aligned(tables * states * actions * 4);
  l.visits = l.stats + aligned(uint64_t{r.environment_count} * r.episode_count * GSDK_QL_STAT_COUNT * 4);
  l.total = l.visits + (r.visits ? aligned(uint64_t{r.environment_count} * states * 8) : 0);
  return l;
}

} // namespace cuda_detail

// Device bytes train_cuda needs for a request (the environment's own data not included).
inline uint64_t cuda_scratch_bytes(const gsdk_qlearning_request& request, uint32_t states, uint32_t actions) {
  return cuda_detail::scratch_layout(request, states, actions).total;
}

// Runs the request on the current device and `stream`. `env` and `starts` must point to device memory.
// Returns the kernel time in milliseconds; the outputs are in host memory when it returns.
template <class Env>
double train_cuda(const Env& env, const uint32_t* starts, uint32_t start_count, const gsdk_qlearning_request& request,
                  cudaStream_t stream, void* scratch, uint64_t scratch_size) {
  using namespace cuda_detail;
  const uint32_t states = env.state_count(), actions = env.action_count(), agents = env.agent_count();
  if (agents == 0 || agents > 1024)
    throw PluginError("CUDA Q-learning runs one thread per agent: 1 to 1024 agents, got " + std::to_string(agents));
  if (start_count == 0) throw PluginError("the environment has no start states");
  if (actions == 0 || actions > kMaxActions)
    throw PluginError("the environment has " + std::to_string(actions) + " actions; Q-learning supports 1 to " +
                      std::to_string(kMaxActions));
  if (env.step_limit() == 0) throw PluginError("the environment's step limit is 0; expected at least 1");
  const bool shared_table = request.flags & GSDK_QL_SHARED_TABLE;
  if (shared_table && !(request.flags & GSDK_QL_ATOMIC_UPDATES))
    throw PluginError("a Q-table shared by environments is updated by many blocks at once on CUDA: it needs "
                      "atomic updates");
  const ScratchLayout layout = scratch_layout(request, states, actions);
  if (scratch_size < layout.total)
    throw PluginError("CUDA Q-learning needs " + std::to_string(layout.total) + " bytes of scratch, got " +
                      std::to_string(scratch_size));
  if (request.environment_count == 0 || request.episode_count == 0) return 0;

  auto* base = static_cast<unsigned char*>(scratch);
  Launch run{request.seed, request.first_environment, request.first_episode, request.episode_count, request.flags,
             request.alpha, request.gamma, reinterpret_cast<const uint32_t*>(base + layout.thresholds),
             reinterpret_cast<float*>(base + layout.q), reinterpret_cast<uint32_t*>(base + layout.stats),
             request.visits ? reinterpret_cast<unsigned long long*>(base + layout.visits) : nullptr, starts,
             start_count, false, false};

  int device = 0, shared_limit = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "reading the shared memory limit");
  const uint64_t claims_bytes = kClaimSlots * 4, visits_bytes = uint64_t{states} * 4,
                 table_bytes = uint64_t{states} * actions * 4;
  uint64_t shared_bytes = claims_bytes;
  run.visits_in_shared = run.visits && shared_bytes + visits_bytes <= static_cast<uint64_t>(shared_limit);
  if (run.visits_in_shared) shared_bytes += visits_bytes;
  run.table_in_shared = !shared_table && shared_bytes + table_bytes <= static_cast<uint64_t>(shared_limit);
  if (run.table_in_shared) shared_bytes += table_bytes;

  const uint64_t tables = shared_table ? 1 : request.environment_count;
  const uint64_t stats_count = uint64_t{request.environment_count} * request.episode_count * GSDK_QL_STAT_COUNT;
  check(cudaMemcpyAsync(base + layout.thresholds, request.explore_thresholds, uint64_t{request.episode_count} * 4,
                        cudaMemcpyHostToDevice, stream), "copying the exploration schedule");
  check(cudaMemcpyAsync(run.q, request.q_tables, tables * table_bytes, cudaMemcpyHostToDevice, stream),
        "copying the Q-tables to the device");
  if (run.visits)
    check(cudaMemsetAsync(run.visits, 0, uint64_t{request.environment_count} * states * 8, stream), "clearing the visit counts");

  const auto kernel = train_kernel<Env>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)),
        "raising the kernel's shared memory limit");
  Events events;
  cudaEvent_t start = events.start, stop = events.stop;
  const unsigned threads = (agents + 31) / 32 * 32;
  check(cudaEventRecord(start, stream), "cudaEventRecord");
  kernel<<<request.environment_count, threads, shared_bytes, stream>>>(env, run);
  check(cudaGetLastError(), "launching the training kernel");
  check(cudaEventRecord(stop, stream), "cudaEventRecord");

  check(cudaMemcpyAsync(request.q_tables, run.q, tables * table_bytes, cudaMemcpyDeviceToHost, stream),
        "copying the Q-tables back");
  check(cudaMemcpyAsync(request.episode_stats, run.stats, stats_count * 4, cudaMemcpyDeviceToHost, stream),
        "copying the episode statistics back");
  std::vector<unsigned long long> visits(run.visits ? uint64_t{request.environment_count} * states : 0);
  if (run.visits)
    check(cudaMemcpyAsync(visits.data(), run.visits, visits.size() * 8, cudaMemcpyDeviceToHost, stream),
          "copying the visit counts back");
  check(cudaStreamSynchronize(stream), "training on the device");
  float milliseconds = 0;
  check(cudaEventElapsedTime(&milliseconds, start, stop), "cudaEventElapsedTime");
  for (size_t i = 0; i < visits.size(); ++i) request.visits[i] += visits[i];
  return milliseconds;
}

} // namespace gsdk::qlearning
