// cuda_checks.cpp - the checks of the CUDA tables against the CPU, bit for bit, on the first GPU: playout
// summaries (from the initial state and mid-game), playouts from many states per launch, and Q-learning.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/qlearning/qlearning.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::host::conformance {

namespace {

void playouts(CheckContext& context, Findings& findings) {
  std::vector<std::optional<core::StateBlob>> starts = {std::nullopt};
  for (const core::StateBlob& s : mid_game_states(context, 19, findings)) starts.emplace_back(s);
  for (const auto& start : starts) {
    core::PlayoutJob job;
    job.seed = 77;
    job.playouts = start ? 400009 : 4000037;
    job.start_state = start;
    job.cpu_threads = std::max(2u, core::available_cpu_threads()); // the reference: any thread count gives it
    job.cpu_item_playouts = 1u << 20;
    const core::PlayoutOutcome cpu = core::run_playouts(context.game(), job);
    if (!cpu.error.empty()) findings.stop("CPU: " + cpu.error);
    job.cpu_threads = 0;
    job.cuda_devices = {context.gpu()};
    const core::PlayoutOutcome gpu = core::run_playouts(context.game(), job);
    if (!gpu.error.empty()) findings.stop("CUDA: " + gpu.error);
    const std::string from = start ? context.quote(*start) : "the initial state";
    if (gpu.result.canonical() != cpu.result.canonical())
      findings.fail(fmt::format("{} playouts from {}: CUDA summary {} differs from the CPU's {}", job.playouts, from,
                                gpu.result.canonical(), cpu.result.canonical()));
    if (gpu.timings.cuda_playouts != job.playouts)
      findings.fail(
          fmt::format("from {}: the GPU ran {} of the {} playouts", from, gpu.timings.cuda_playouts, job.playouts));
  }
}

void playout_batches(CheckContext& context, Findings& findings) {
  std::mt19937_64 random(23);
  std::vector<unsigned char> packed;
  uint32_t count = 0;
  for (int g = 0; g < 40 && !findings.failed(); ++g) {
    const RandomGame game = play_random_game(context, random, context.game().initial_state(), findings);
    for (size_t i = 0; i < game.states.size(); i += 3) {
      if (context.game().current_player(game.states[i]) < 0) continue;
      packed.insert(packed.end(), game.states[i].begin(), game.states[i].end());
      ++count;
    }
  }
  const auto cpu = core::make_cpu_evaluator(context.game());
  const auto gpu = core::make_cuda_evaluator(context.game(), context.gpu(), 1 << 16, 64);
  cpu->reseed(61);
  gpu->reseed(61);
  const std::vector<core::WinDrawLoss> want = cpu->evaluate_batch(packed, count, 53);
  const std::vector<core::WinDrawLoss> got = gpu->evaluate_batch(packed, count, 53);
  if (got.size() != want.size())
    findings.stop(fmt::format("the GPU returned {} outcomes for {} states", got.size(), want.size()));
  const uint32_t size = context.game().state_size();
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i].wins == want[i].wins && got[i].draws == want[i].draws && got[i].losses == want[i].losses) continue;
    const core::StateBlob state(packed.begin() + i * size, packed.begin() + (i + 1) * size);
    findings.fail(fmt::format("53 playouts from {} (state {} of a batch of {}): the GPU counts {}/{}/{} wins/draws/"
                              "losses, the CPU {}/{}/{}",
                              context.quote(state), i, count, got[i].wins, got[i].draws, got[i].losses, want[i].wins,
                              want[i].draws, want[i].losses));
  }
}

void qlearning(CheckContext& context, Findings& findings) {
  core::QLearningJob job;
  job.settings.seed = 5;
  job.settings.environments = 3;
  job.settings.episodes = 12;
  job.settings.epsilon_decay = 0.8;
  job.settings.test_episodes = 2;
  job.count_visits = true;
  job.cpu_threads = 2;
  const core::QLearningOutcome cpu = core::run_qlearning(context.game(), job);
  if (!cpu.error.empty()) findings.stop("CPU: " + cpu.error);
  job.cuda_devices = {context.gpu()};
  const core::QLearningOutcome gpu = core::run_qlearning(context.game(), job);
  if (!gpu.error.empty()) findings.stop("CUDA: " + gpu.error);
  if (gpu.device != "cuda") findings.fail(fmt::format("the run went to {}, expected cuda", gpu.device));
  if (gpu.digest() != cpu.digest())
    findings.fail(fmt::format("CUDA Q-learning gives digest {}, the CPU {}", gpu.digest(), cpu.digest()));
  if (gpu.visits != cpu.visits) findings.fail("CUDA Q-learning counts other state visits than the CPU");
}

} // namespace

std::vector<CheckSpec> cuda_checks() {
  return {
      {"cuda.playouts",
       "CUDA playout summaries equal the CPU's bit for bit, from the initial state and mid-game",
       {GSDK_TABLE_CUDA_PLAYOUTS},
       true,
       playouts},
      {"cuda.playout_batches",
       "CUDA playouts from many states in one launch count what the CPU counts one state at a time",
       {GSDK_TABLE_CUDA_PLAYOUT_BATCHES},
       true,
       playout_batches},
      {"cuda.qlearning",
       "CUDA Q-learning gives the CPU's digest and visits",
       {GSDK_TABLE_ENVIRONMENT, GSDK_TABLE_CUDA_QLEARNING},
       true,
       qlearning},
  };
}

} // namespace gsdk::host::conformance
