// train_cpu.hpp - the CPU trainer: a gsdk_qlearning_request run on the calling thread, following
// semantics.hpp. Any environment type with these members works (a plugin's inlined rules, or the
// core's adapter over the ABI's gsdk.environment.v1 table):
//   uint32_t state_count() const, action_count() const, agent_count() const, step_limit() const;
//   gsdk::qlearning::Transition step(uint32_t state, uint32_t action) const;
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/qlearning/semantics.hpp"

namespace gsdk::qlearning {

namespace detail {

// One environment's agents and episode bookkeeping while a group advances in lockstep. The agents still
// moving are listed in ascending order, so loops skip the frozen ones without a branch per agent and
// updates are applied in agent order.
struct EnvironmentRun {
  uint32_t environment = 0; // index within the request
  uint32_t episode = 0;     // index within the request; episode_count when done
  uint32_t steps = 0;
  uint32_t stats[GSDK_QL_STAT_COUNT] = {};
  std::vector<uint32_t> state;       // per agent
  std::vector<AgentStream> random;   // per agent
  std::vector<uint32_t> moving;      // agents still moving, ascending
  std::vector<uint32_t> index, next; // per entry of `moving`: the (s, a) it updates, where it lands
  std::vector<float> target;         // per entry of `moving`
  std::vector<int8_t> ending;        // per entry of `moving`: 0 moves on, else the sign of its last reward
                                     // (+1, -1) or 2 for an end that paid nothing
};

template <class Env> class LockstepTrainer {
public:
  LockstepTrainer(const Env& env, const gsdk_qlearning_request& request, std::span<const uint32_t> starts)
      : env_(env), request_(request), starts_(starts), actions_(env.action_count()), agents_(env.agent_count()),
        step_limit_(env.step_limit()) {
    if (starts_.empty()) throw std::invalid_argument("the environment has no start states");
    if (step_limit_ == 0) throw std::invalid_argument("the environment's step limit is 0; expected at least 1");
    if (actions_ == 0 || actions_ > kMaxActions)
      throw std::invalid_argument("the environment has " + std::to_string(actions_) + " actions; Q-learning supports 1 to " +
                                  std::to_string(kMaxActions));
  }

  // Trains environments [first, first + count) of the request; `shared` makes them update one table.
  void run(uint32_t first, uint32_t count, bool shared) {
    std::vector<EnvironmentRun> runs(count);
    for (uint32_t i = 0; i < count; ++i) {
      EnvironmentRun& r = runs[i];
      r.environment = first + i;
      for (auto* v : {&r.state, &r.index, &r.next}) v->resize(agents_);
      r.target.resize(agents_);
      r.ending.resize(agents_);
      r.random.resize(agents_);
      r.moving.reserve(agents_);
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
    r.moving.clear();
    for (uint32_t a = 0; a < agents_; ++a) {
      r.random[a] = AgentStream(request_.seed, environment, a, episode);
      r.state[a] = starts_[scaled_index(r.random[a].next(), static_cast<uint32_t>(starts_.size()))];
      r.moving.push_back(a);
    }
    r.steps = 0;
    for (uint32_t& s : r.stats) s = 0;
  }

  // Ends the episode when it cannot go on (a fresh one always can: step limits are at least 1),
  // records it and starts the next.
  void finish_episode_if_over(EnvironmentRun& r) {
    if (episode_continues(r.steps, step_limit_, static_cast<uint32_t>(r.moving.size()), agents_)) return;
    r.stats[GSDK_QL_STAT_STEPS] = r.steps;
    uint32_t* out =
        request_.episode_stats + (uint64_t{r.environment} * request_.episode_count + r.episode) * GSDK_QL_STAT_COUNT;
    for (int i = 0; i < GSDK_QL_STAT_COUNT; ++i) out[i] = r.stats[i];
    if (++r.episode < request_.episode_count) begin_episode(r);
  }

  // Reads only: every moving agent's action, transition and target.
  void choose(EnvironmentRun& r, const float* q) {
    const uint32_t threshold = request_.explore_thresholds[r.episode];
    const bool first_max = (request_.flags & GSDK_QL_FIRST_MAX_TIES) != 0;
    const uint32_t n = static_cast<uint32_t>(r.moving.size());
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t a = r.moving[i];
      const uint32_t s = r.state[a];
      const uint32_t action = choose_action(q + uint64_t{s} * actions_, actions_, r.random[a].next(), threshold, first_max);
      const Transition t = env_.step(s, action);
      r.index[i] = s * actions_ + action;
      r.next[i] = t.next;
      r.ending[i] = static_cast<int8_t>(t.terminal ? (t.reward > 0 ? 1 : t.reward < 0 ? -1 : 2) : 0);
      r.target[i] = td_target(t, request_.gamma, t.terminal ? 0.0f : row_max(q + uint64_t{t.next} * actions_, actions_));
    }
  }

  // The step's updates in agent order, then the moves; agents whose move ended their episode stop.
  void apply(EnvironmentRun& r, float* q) {
    uint64_t* visits = request_.visits ? request_.visits + uint64_t{r.environment} * env_.state_count() : nullptr;
    const uint32_t n = static_cast<uint32_t>(r.moving.size());
    r.stats[GSDK_QL_STAT_AGENT_STEPS] += n;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
      float& value = q[r.index[i]];
      value = updated_value(value, r.target[i], request_.alpha);
      const uint32_t a = r.moving[i];
      r.state[a] = r.next[i];
      if (visits) ++visits[r.next[i]];
      const int8_t ending = r.ending[i];
      r.stats[GSDK_QL_STAT_SUCCESSES] += ending == 1;
      r.stats[GSDK_QL_STAT_FAILURES] += ending == -1;
      r.moving[kept] = a;
      kept += ending == 0;
    }
    r.moving.resize(kept);
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
