// othello_vector_env.cpp - the speed of othello's vectorised environment (docs/perf/othello.md): the CPU batched
// step and observation fill on one core, then, in a CUDA build with a GPU, the CUDA step and fill, all through the
// plugin's C tables as a VectorEnv calls them. Actions are random legal codes drawn from the positions (not timed).
// Usage: othello_vector_env [ENVS_CPU [ENVS_CUDA]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "vector_env_tables.hpp"
#include "vector_env_cuda.hpp"

namespace {

using othello::Position;
using Clock = std::chrono::steady_clock;

void check(int32_t status, const char* error) {
  if (status == GSDK_OK) return;
  std::fprintf(stderr, "othello_vector_env: %s\n", error);
  std::exit(1);
}

void measure_cpu(const othello::bench::VectorEnvTables& t, uint32_t envs, uint32_t rounds) {
  std::vector<Position> states(envs, othello::start_position());
  std::vector<uint32_t> actions(envs);
  std::vector<float> rewards(2 * size_t{envs});
  std::vector<uint8_t> terminated(envs), legal(size_t{envs} * othello::kCodeCount);
  std::vector<uint8_t> observations(size_t{envs} * othello::kObservationBytes);
  std::vector<int32_t> players(envs);
  gsdk::rng::SplitMix64 random(1);
  char error[512] = {};
  double step_seconds = 0, fill_seconds = 0;
  uint64_t ended = 0;
  for (uint32_t round = 0; round < rounds; ++round) {
    for (uint32_t k = 0; k < envs; ++k) actions[k] = othello::bench::drawn_code(states[k], random.next());
    const auto start = Clock::now();
    check(t.steps->step(t.instance, states.data(), actions.data(), envs, rewards.data(), terminated.data(),
                        players.data(), legal.data(), error, sizeof error),
          error);
    const auto stepped = Clock::now();
    t.observations->fill(t.instance, states.data(), envs, observations.data());
    const auto filled = Clock::now();
    step_seconds += std::chrono::duration<double>(stepped - start).count();
    fill_seconds += std::chrono::duration<double>(filled - stepped).count();
    for (const uint8_t done : terminated) ended += done;
  }
  const double env_steps = double{1} * envs * rounds;
  std::printf("cpu, one core, %u envs x %u steps (%llu games ended): step %.1f ns, fill %.1f ns, step + fill %.1f ns "
              "per env-step = %.3g env-steps/s\n",
              envs, rounds, static_cast<unsigned long long>(ended), 1e9 * step_seconds / env_steps,
              1e9 * fill_seconds / env_steps, 1e9 * (step_seconds + fill_seconds) / env_steps,
              env_steps / (step_seconds + fill_seconds));
}

} // namespace

int main(int argc, char** argv) {
  const uint32_t cpu_envs = argc > 1 ? static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10)) : 4096;
  const uint32_t cuda_envs = argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)) : 1u << 22;
  if (cpu_envs == 0 || cuda_envs == 0) {
    std::fprintf(stderr, "usage: othello_vector_env [ENVS_CPU [ENVS_CUDA]], each at least 1\n");
    return 2;
  }
  const othello::bench::VectorEnvTables tables = othello::bench::vector_env_tables();
  measure_cpu(tables, cpu_envs, 2000);
  othello::bench::measure_cuda(tables, cuda_envs, 200);
  return 0;
}
