// qlearning_checks.cpp - the checks of the Q-learning tables: the environment's counts, start states and
// steps; the plugin's CPU trainer against the core's generic trainer over the environment; policy pictures.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "gsdk/core/qlearning/qlearning.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/qlearning/semantics.hpp"

namespace gsdk::host::conformance {

namespace {

constexpr uint32_t kSentinel = 0xdeadbeefu;

void environment(CheckContext& context, Findings& findings) {
  const gsdk_environment& env = *context.tables().environment;
  const gsdk_game_instance* h = context.handle();
  const uint32_t states = env.state_count(h), actions = env.action_count(h);
  if (states < 1) findings.fail("state_count() is 0");
  if (actions < 1 || actions > qlearning::kMaxActions)
    findings.fail(fmt::format("action_count() = {}, expected 1..{}", actions, qlearning::kMaxActions));
  if (env.agent_count(h) < 1) findings.fail("agent_count() is 0");
  if (env.step_limit(h) < 1) findings.fail("step_limit() is 0");
  const uint32_t count = env.start_states(h, nullptr, 0);
  if (count < 1) findings.stop("start_states() lists no start state");
  std::vector<uint32_t> starts(count + 1, kSentinel);
  if (const uint32_t again = env.start_states(h, starts.data(), count); again != count)
    findings.fail(fmt::format("start_states() counts {} states, then {}", count, again));
  if (starts[count] != kSentinel) findings.fail(fmt::format("start_states() wrote past its capacity of {}", count));
  starts.pop_back();
  if (!std::is_sorted(starts.begin(), starts.end())) findings.fail("start_states() are not in ascending order");
  if (std::set<uint32_t>(starts.begin(), starts.end()).size() != count)
    findings.fail("start_states() lists a state twice");
  // Every state reachable from the starts (up to 20,000) steps into range, the same way each time.
  std::set<uint32_t> seen(starts.begin(), starts.end());
  std::vector<uint32_t> frontier(starts.begin(), starts.end());
  while (!frontier.empty() && seen.size() < 20000 && !findings.failed()) {
    const uint32_t s = frontier.back();
    frontier.pop_back();
    if (s >= states) {
      findings.fail(fmt::format("state {} is not below state_count() = {}", s, states));
      continue;
    }
    for (uint32_t a = 0; a < actions; ++a) {
      uint32_t next = 0, again = 0;
      float reward = 0, reward_again = 0;
      int32_t terminal = 0, terminal_again = 0;
      env.step(h, s, a, &next, &reward, &terminal);
      env.step(h, s, a, &again, &reward_again, &terminal_again);
      if (next != again || reward != reward_again || terminal != terminal_again)
        findings.fail(fmt::format("step({}, {}) is not deterministic: ({}, {}, {}) then ({}, {}, {})", s, a, next,
                                  reward, terminal, again, reward_again, terminal_again));
      if (next >= states) findings.fail(fmt::format("step({}, {}) leads to state {} of {}", s, a, next, states));
      if (!std::isfinite(reward)) findings.fail(fmt::format("step({}, {}) pays the reward {}", s, a, reward));
      if (!terminal && next < states && seen.insert(next).second) frontier.push_back(next);
    }
  }
}

core::QLearningJob small_job() {
  core::QLearningJob job;
  job.settings.seed = 5;
  job.settings.environments = 3;
  job.settings.episodes = 12;
  job.settings.epsilon_decay = 0.8;
  job.settings.test_episodes = 2;
  job.count_visits = true;
  return job;
}

void cpu_trainer(CheckContext& context, Findings& findings) {
  core::QLearningJob job = small_job();
  job.cpu_threads = 1;
  job.force_generic = true;
  const core::QLearningOutcome generic = core::run_qlearning(context.game(), job);
  if (!generic.error.empty()) findings.stop("the generic trainer: " + generic.error);
  job.force_generic = false;
  job.cpu_threads = 2;
  const core::QLearningOutcome plugin = core::run_qlearning(context.game(), job);
  if (!plugin.error.empty()) findings.stop("the plugin's trainer: " + plugin.error);
  if (plugin.engine != "batch")
    findings.fail(fmt::format("the run used the {} trainer, expected the plugin's", plugin.engine));
  if (plugin.digest() != generic.digest())
    findings.fail(
        fmt::format("the plugin's trainer gives digest {}, the generic trainer {}", plugin.digest(), generic.digest()));
  if (plugin.visits != generic.visits)
    findings.fail("the plugin's trainer counts other state visits than the generic one");
  if (plugin.agent_steps != generic.agent_steps)
    findings.fail(fmt::format("the plugin's trainer made {} agent steps, the generic trainer {}", plugin.agent_steps,
                              generic.agent_steps));
  if (plugin.agent_steps == 0) findings.fail("training made no agent step");
}

void render(CheckContext& context, Findings& findings) {
  const gsdk_render& table = *context.tables().render;
  const gsdk_environment& env = *context.tables().environment;
  const uint32_t states = env.state_count(context.handle()), actions = env.action_count(context.handle());
  const std::vector<float> q(static_cast<size_t>(states) * actions, 0.0f);
  const std::vector<uint64_t> visits(states, 1);
  uint32_t width = 0, height = 0;
  if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
        return table.policy_image(context.handle(), q.data(), nullptr, nullptr, 0, &width, &height, error, size);
      }))
    findings.stop(
        fmt::format("policy_image without a buffer failed (status {}): {}", failure->status, failure->message));
  if (width == 0 || height == 0 || uint64_t{width} * height > (uint64_t{1} << 26))
    findings.stop(fmt::format("policy_image sizes its picture {}x{}", width, height));
  std::vector<uint8_t> rgb(uint64_t{width} * height * 3 + 64, 0x5a);
  for (const uint64_t* heat : {static_cast<const uint64_t*>(nullptr), visits.data()}) {
    uint32_t w = 0, h = 0;
    if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
          return table.policy_image(context.handle(), q.data(), heat, rgb.data(), rgb.size() - 64, &w, &h, error, size);
        }))
      findings.fail(fmt::format("policy_image{} failed (status {}): {}", heat ? " with visits" : "", failure->status,
                                failure->message));
    if (w != width || h != height)
      findings.fail(fmt::format("policy_image draws {}x{}, but announced {}x{}", w, h, width, height));
    if (std::any_of(rgb.end() - 64, rgb.end(), [](uint8_t b) { return b != 0x5a; }))
      findings.fail("policy_image wrote past the capacity it was given");
  }
}

} // namespace

std::vector<CheckSpec> qlearning_checks() {
  return {
      {"qlearning.environment",
       "environment counts sane; start states sorted and distinct; steps deterministic and in range",
       {GSDK_TABLE_ENVIRONMENT},
       false,
       environment},
      {"qlearning.cpu_trainer",
       "the plugin's CPU trainer gives what the core's generic trainer gives, bit for bit",
       {GSDK_TABLE_ENVIRONMENT, GSDK_TABLE_CPU_QLEARNING},
       false,
       cpu_trainer},
      {"qlearning.render",
       "policy pictures have the size announced and stay within the buffer",
       {GSDK_TABLE_ENVIRONMENT, GSDK_TABLE_RENDER},
       false,
       render},
  };
}

} // namespace gsdk::host::conformance
