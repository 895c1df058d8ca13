// batched_step_checks.cpp - the checks of gsdk.batched_steps.v1: only for games without chance nodes and with move
// codes; its CPU step, and on a GPU its CUDA step and reset, giving what the core's generic per-state stepping gives
// (states, rewards, terminated, players, legal masks and observations) over random trajectories of a few hundred
// steps, game ends and resets included; and the steps that keep final states (ABI 1.13) under a step limit, with the
// final observations, truncations and movers' rewards that a learner's environment builds from them.
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "gsdk/core/environments/vector_env.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::host::conformance {

namespace {

constexpr uint32_t kGames = 64;
constexpr int kSteps = 300;
constexpr int kResetAt = 150; // a reset() in the middle, beside the game ends

void allowed(CheckContext& context, Findings& findings) {
  if (context.table().flags & GSDK_GAME_FLAG_CHANCE)
    findings.fail("the game has chance nodes (GSDK_GAME_FLAG_CHANCE); batched steps are for games without them");
  if (!context.tables().move_codes)
    findings.fail(fmt::format("the game has no '{}' table; batched steps take move codes", GSDK_TABLE_MOVE_CODES));
}

std::vector<unsigned char> host_bytes(const core::EnvArray& array) {
  std::vector<unsigned char> bytes(array.bytes());
  core::copy_to_host(array, bytes.data());
  return bytes;
}

// Rewards by value, so that -0.0f and 0.0f agree.
bool same_rewards(const core::EnvArray& a, const core::EnvArray& b) {
  const auto x = host_bytes(a), y = host_bytes(b);
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); i += sizeof(float)) {
    float u = 0, v = 0;
    std::memcpy(&u, x.data() + i, sizeof u);
    std::memcpy(&v, y.data() + i, sizeof v);
    if (u != v) return false;
  }
  return true;
}

// Records the first array of `found` that differs from `expected`'s, naming the step.
void compare(const core::EnvStep& expected, const core::EnvStep& found, const core::VectorEnv& reference,
             const core::VectorEnv& tested, const std::string& when, Findings& findings) {
  const std::pair<const char*, bool> checks[] = {
      {"states", reference.states_on_host() == tested.states_on_host()},
      {"rewards", same_rewards(*expected.rewards, *found.rewards)},
      {"terminated", host_bytes(*expected.terminated) == host_bytes(*found.terminated)},
      {"players", host_bytes(*expected.players) == host_bytes(*found.players)},
      {"legal masks", host_bytes(*expected.legal) == host_bytes(*found.legal)},
      {"observations", host_bytes(*expected.observations) == host_bytes(*found.observations)},
      {"truncations", host_bytes(*expected.truncated) == host_bytes(*found.truncated)},
      {"ends", host_bytes(*expected.ended) == host_bytes(*found.ended)},
      {"movers' rewards", same_rewards(*expected.actor_rewards, *found.actor_rewards)},
      {"final observations",
       !expected.final_observations ||
           (found.final_observations && host_bytes(*expected.final_observations) == host_bytes(*found.final_observations))},
  };
  for (const auto& [what, same] : checks)
    if (!same) findings.stop(fmt::format("{}: the {} differ from the generic per-state stepping's", when, what));
}

// The reference (the core's generic stepping on the CPU) and `tested` from the same seed, stepped by the reference's
// random actions.
void compare_trajectories(const CheckContext& context, const core::VectorEnvSettings& tested_settings,
                          const char* label, Findings& findings) {
  core::VectorEnvSettings reference_settings;
  reference_settings.count = tested_settings.count;
  reference_settings.seed = tested_settings.seed;
  reference_settings.force_generic = true;
  reference_settings.max_episode_steps = tested_settings.max_episode_steps;
  reference_settings.final_observations = tested_settings.final_observations;
  core::VectorEnv reference(context.game(), reference_settings), tested(context.game(), tested_settings);
  compare(reference.reset(), tested.reset(), reference, tested, fmt::format("{}: reset", label), findings);
  for (int step = 1; step <= kSteps; ++step) {
    if (step == kResetAt) {
      compare(reference.reset(), tested.reset(), reference, tested, fmt::format("{}: reset at step {}", label, step),
              findings);
      continue;
    }
    const auto actions = reference.random_actions();
    const core::EnvStep expected = reference.step(actions->as<uint32_t>(), core::MemoryPlace::host);
    const core::EnvStep found = tested.step(actions->as<uint32_t>(), core::MemoryPlace::host);
    compare(expected, found, reference, tested, fmt::format("{}: step {} of {} games", label, step, kGames), findings);
  }
}

// The trajectories need move codes and no chance nodes (batched_steps.allowed says so when they are missing).
void require_steppable(const CheckContext& context, Findings& findings) {
  if (!context.tables().move_codes || (context.table().flags & GSDK_GAME_FLAG_CHANCE))
    findings.skip("the game cannot have batched steps (see environment.batched_steps_allowed)");
}

void cpu_step(CheckContext& context, Findings& findings) {
  require_steppable(context, findings);
  if (!context.tables().batched_steps->step) findings.skip("the table has no CPU step");
  core::VectorEnvSettings settings;
  settings.count = kGames;
  settings.seed = 41;
  settings.threads = 2;
  compare_trajectories(context, settings, "CPU batched step", findings);
}

void cuda_step(CheckContext& context, Findings& findings) {
  require_steppable(context, findings);
  const gsdk_batched_steps& table = *context.tables().batched_steps;
  if (!table.cuda_step && !table.cuda_reset) findings.skip("the table has no CUDA step");
  if (!table.cuda_step || !table.cuda_reset)
    findings.stop("the table has one of cuda_step and cuda_reset without the other");
  if (context.tables().observations && !context.tables().observations->cuda_fill)
    findings.stop("the game has observations without cuda_fill, so a CUDA environment cannot hand them out");
  core::VectorEnvSettings settings;
  settings.count = kGames;
  settings.seed = 43;
  settings.cuda = true;
  settings.cuda_device = context.gpu();
  compare_trajectories(context, settings, "CUDA step", findings);
}

// Final observations and a step limit short enough to truncate some games and let others end.
void keep_final_states(core::VectorEnvSettings& settings) {
  settings.final_observations = true;
  settings.max_episode_steps = 23;
}

void cpu_final_states(CheckContext& context, Findings& findings) {
  require_steppable(context, findings);
  if (!core::step_keeping_final(*context.tables().batched_steps))
    findings.skip("the table has no step_keeping_final (ABI 1.13); final observations step by the per-state rules");
  core::VectorEnvSettings settings;
  settings.count = kGames;
  settings.seed = 47;
  settings.threads = 2;
  keep_final_states(settings);
  compare_trajectories(context, settings, "CPU step keeping final states", findings);
}

void cuda_final_states(CheckContext& context, Findings& findings) {
  require_steppable(context, findings);
  const gsdk_batched_steps& table = *context.tables().batched_steps;
  if (!core::cuda_step_keeping_final(table)) findings.skip("the table has no cuda_step_keeping_final (ABI 1.13)");
  if (!table.cuda_step || !table.cuda_reset)
    findings.stop("the table has cuda_step_keeping_final without cuda_step and cuda_reset");
  core::VectorEnvSettings settings;
  settings.count = kGames;
  settings.seed = 53;
  settings.cuda = true;
  settings.cuda_device = context.gpu();
  keep_final_states(settings);
  compare_trajectories(context, settings, "CUDA step keeping final states", findings);
}

} // namespace

std::vector<CheckSpec> batched_step_checks() {
  return {
      {"environment.batched_steps_allowed",
       "batched steps only for a game without chance nodes and with move codes",
       {GSDK_TABLE_BATCHED_STEPS},
       false,
       allowed},
      {"environment.batched_cpu_step",
       "the CPU step gives the generic per-state stepping's states, rewards, ends, players, masks and observations",
       {GSDK_TABLE_BATCHED_STEPS},
       false,
       cpu_step},
      {"environment.batched_cuda_step",
       "the CUDA step and reset give the generic per-state stepping's states, rewards, ends, players and masks",
       {GSDK_TABLE_BATCHED_STEPS},
       true,
       cuda_step},
      {"environment.batched_cpu_final_states",
       "the CPU step keeping final states gives the per-state stepping's final observations under a step limit",
       {GSDK_TABLE_BATCHED_STEPS},
       false,
       cpu_final_states},
      {"environment.batched_cuda_final_states",
       "the CUDA step keeping final states gives the per-state stepping's final observations under a step limit",
       {GSDK_TABLE_BATCHED_STEPS},
       true,
       cuda_final_states},
  };
}

} // namespace gsdk::host::conformance
