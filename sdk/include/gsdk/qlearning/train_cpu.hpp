// train_cpu.hpp - the CPU trainer: a gsdk_qlearning_request run on the calling thread, following
// semantics.hpp. Any environment type with these members works (a plugin's inlined rules, or the
// core's adapter over the ABI's gsdk.environment.v1 table):
//   uint32_t state_count() const, action_count() const, agent_count() const, step_limit() const;
//   gsdk::qlearning::Transition step(uint32_t state, uint32_t action) const;
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/qlearning/semantics.hpp"

namespace gsdk::qlearning {

namespace detail {

// One environment's agents and episode bookkeeping while a group advances in lockstep.
struct EnvironmentRun {
  uint32_t environment = 0; // index within the request
  uint32_t episode = 0;     // index within the request; episode_count when done
  uint32_t steps = 0;
  uint32_t active = 0;
  uint32_t stats[GSDK_QL_STAT_COUNT] = {};
  std::vector<uint32_t> state, action, next;
  std::vector<float> target, reward;
  std::vector<uint8_t> alive, terminal;
  std::vector<AgentStream> random;
};

template <class Env> class LockstepTrainer {
public:
  LockstepTrainer(const Env& env, const gsdk_qlearning_request& request, std::span<const uint32_t> starts)
      : env_(env), request_(request), starts_(starts), actions_(env.action_count()), agents_(env.agent_count()),
        step_limit_(env.step_limit()) {
    if (starts_.empty()) throw std::invalid_argument("the environment has no start states");
    if (step_limit_ == 0) throw std::invalid_argument("the environment's step limit is 0; expected at least 1");
  }

  // Trains environments [first, first + count) of the request; `shared` makes them update one table.
  void run(uint32_t first, uint32_t count, bool shared) {
    std::vector<EnvironmentRun> runs(count);
    for (uint32_t i = 0; i < count; ++i) {
      EnvironmentRun& r = runs[i];
      r.environment = first + i;
      for (auto* v : {&r.state, &r.action, &r.next}) v->resize(agents_);
      r.target.resize(agents_);
      r.reward.resize(agents_);
      r.alive.resize(agents_);
      r.terminal.resize(agents_);
      r.random.resize(agents_);
      begin_episode(r);
    }
    for (;;) {
      bool any = false;
      for (EnvironmentRun& r : runs) {
        if (r.episode == request_.episode_count) continue;
        any = true;
        choose(r, table(r, shared));
      }
      if (!any) return;
      for (EnvironmentRun& r : runs)
        if (r.episode < request_.episode_count) apply(r, table(r, shared));
    }
  }

private:
  float* table(const EnvironmentRun& r, bool shared) const {
    return request_.q_tables + (shared ? 0 : uint64_t{r.environment} * env_.state_count() * actions_);
  }

  void begin_episode(EnvironmentRun& r) {
    const uint32_t environment = request_.first_environment + r.environment;
    const uint32_t episode = request_.first_episode + r.episode;
    for (uint32_t a = 0; a < agents_; ++a) {
      r.random[a] = AgentStream(request_.seed, environment, a, episode);
      r.state[a] = starts_[scaled_index(r.random[a].next(), static_cast<uint32_t>(starts_.size()))];
      r.alive[a] = 1;
    }
    r.active = agents_;
    r.steps = 0;
    for (uint32_t& s : r.stats) s = 0;
  }

  // Ends the episode when it cannot go on (a fresh one always can: step limits are at least 1),
  // records it and starts the next.
  void finish_episode_if_over(EnvironmentRun& r) {
    if (episode_continues(r.steps, step_limit_, r.active, agents_)) return;
    r.stats[GSDK_QL_STAT_STEPS] = r.steps;
    uint32_t* out =
        request_.episode_stats + (uint64_t{r.environment} * request_.episode_count + r.episode) * GSDK_QL_STAT_COUNT;
    for (int i = 0; i < GSDK_QL_STAT_COUNT; ++i) out[i] = r.stats[i];
    if (++r.episode < request_.episode_count) begin_episode(r);
  }

  // Reads only: every active agent's action, transition and target.
  void choose(EnvironmentRun& r, const float* q) {
    const uint32_t threshold = request_.explore_thresholds[r.episode];
    const bool first_max = (request_.flags & GSDK_QL_FIRST_MAX_TIES) != 0;
    for (uint32_t a = 0; a < agents_; ++a) {
      if (!r.alive[a]) continue;
      const uint32_t s = r.state[a];
      const uint32_t action = choose_action(q + uint64_t{s} * actions_, actions_, r.random[a].next(), threshold, first_max);
      const Transition t = env_.step(s, action);
      r.action[a] = action;
      r.next[a] = t.next;
      r.reward[a] = t.reward;
      r.terminal[a] = t.terminal;
      r.target[a] = td_target(t, request_.gamma, t.terminal ? 0.0f : row_max(q + uint64_t{t.next} * actions_, actions_));
    }
  }

  // The step's updates in agent order, then the moves.
  void apply(EnvironmentRun& r, float* q) {
    uint64_t* visits = request_.visits ? request_.visits + uint64_t{r.environment} * env_.state_count() : nullptr;
    r.stats[GSDK_QL_STAT_AGENT_STEPS] += r.active;
    for (uint32_t a = 0; a < agents_; ++a) {
      if (!r.alive[a]) continue;
      float& value = q[uint64_t{r.state[a]} * actions_ + r.action[a]];
      value = updated_value(value, r.target[a], request_.alpha);
      r.state[a] = r.next[a];
      if (visits) ++visits[r.next[a]];
      if (!r.terminal[a]) continue;
      r.alive[a] = 0;
      --r.active;
      if (r.reward[a] > 0) ++r.stats[GSDK_QL_STAT_SUCCESSES];
      if (r.reward[a] < 0) ++r.stats[GSDK_QL_STAT_FAILURES];
    }
    ++r.steps;
    finish_episode_if_over(r);
  }

  const Env& env_;
  const gsdk_qlearning_request& request_;
  std::span<const uint32_t> starts_;
  uint32_t actions_, agents_, step_limit_;
};

} // namespace detail

// Runs the whole request on this thread. Per-environment tables train one environment after another
// (they are independent); a shared table makes all environments advance in lockstep.
template <class Env>
void train_cpu(const Env& env, const gsdk_qlearning_request& request, std::span<const uint32_t> starts) {
  detail::LockstepTrainer<Env> trainer(env, request, starts);
  if (request.flags & GSDK_QL_SHARED_TABLE) {
    trainer.run(0, request.environment_count, true);
    return;
  }
  for (uint32_t e = 0; e < request.environment_count; ++e) trainer.run(e, 1, false);
}

} // namespace gsdk::qlearning
