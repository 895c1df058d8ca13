// semantics.hpp - what one step of multi-agent tabular Q-learning means, for every device.
//
// A training run of one environment (A agents, one Q-table of S x N values, all zero at first unless
// given) is, episode by episode:
//   1. Agent a draws its random bits from AgentStream(seed, environment, a, episode) only. Its first
//      draw picks its start state uniformly from the environment's start states.
//   2. Steps follow while more than 20% of the agents are active (5 * active > A) and fewer than the
//      environment's step limit have been taken. In a step, every active agent, reading the table as
//      it was when the step began, draws 64 bits r, explores when (uint32)r is below the episode's
//      threshold (a uniform action from r's high half) and otherwise takes the greedy action (ties
//      broken uniformly from r's high half, or to the lowest action); the environment moves it and
//      pays a reward; its target is the reward when the move ended the episode, else
//      fmaf(gamma, max_a' Q(next, a'), reward).
//   3. Then the step's updates Q(s, a) = fmaf(alpha, target - Q(s, a), Q(s, a)) are applied in agent
//      order, so agents that share (s, a) in one step apply theirs one after another. An agent whose
//      move ended the episode is frozen until the next.
// With a table shared by several environments, the environments advance in lockstep (all reads of a
// step, then all updates in (environment, agent) order), each starting its next episode as soon as
// its last ends. Everything is IEEE single precision with explicit fused multiply-adds, so the CPU and
// CUDA trainers agree bit for bit. CUDA's atomic mode instead adds alpha * (target - Q at the step's
// start) with atomic adds: faster, not reproducible.
#pragma once

#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

#include "gsdk/hd.hpp"
#include "gsdk/rng/philox.hpp"
#include "gsdk/rng/splitmix64.hpp"

namespace gsdk::qlearning {

using rng::scaled_index;

struct Transition {
  uint32_t next;
  float reward;
  bool terminal;
};

// One agent's random bits in one episode: a splitmix64 sequence whose start is a Philox block of
// (seed; environment, agent, episode). Cheap per draw, and a pure function of the work's ids.
class AgentStream {
public:
  AgentStream() = default;
  GSDK_HD AgentStream(uint64_t seed, uint32_t environment, uint32_t agent, uint32_t episode)
      : bits_(rng::philox_block(seed, (static_cast<uint64_t>(environment) << 32) | agent,
                                (uint64_t{0x514c} << 48) | episode)[0]) {}

  GSDK_HD uint64_t next() { return bits_.next(); }

private:
  rng::SplitMix64 bits_;
};

// Actions a trainer supports: ties are tracked in a 64-bit mask.
inline constexpr uint32_t kMaxActions = 64;

GSDK_HD float row_max(const float* row, uint32_t actions) {
  float best = row[0];
  for (uint32_t i = 1; i < actions; ++i) best = row[i] > best ? row[i] : best;
  return best;
}

GSDK_HD uint32_t lowest_bit(uint64_t mask) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__ffsll(static_cast<long long>(mask)) - 1);
#else
  return static_cast<uint32_t>(__builtin_ctzll(mask));
#endif
}

// The action an agent takes from `row` (its state's Q-values) given its step's random bits: a uniform
// action when exploring, else the highest value, ties going to the pick-th tied action counting from the
// lowest (pick uniform from the high half of r), or to the lowest with first_max_ties. Written without
// data-dependent branches: exploring or not and the number of ties are coin flips a CPU cannot predict.
GSDK_HD uint32_t choose_action(const float* row, uint32_t actions, uint64_t r, uint32_t explore_threshold,
                               bool first_max_ties) {
  const uint32_t high = static_cast<uint32_t>(r >> 32);
  const float best = row_max(row, actions);
  uint64_t ties = 0;
  uint32_t tie_count = 0;
  for (uint32_t i = 0; i < actions; ++i) {
    const bool tied = row[i] == best;
    ties |= static_cast<uint64_t>(tied) << i;
    tie_count += tied;
  }
  const uint32_t pick = first_max_ties ? 0u : static_cast<uint32_t>((static_cast<uint64_t>(high) * tie_count) >> 32);
  for (uint32_t i = 0; i + 1 < actions; ++i) {
    const uint64_t drop = uint64_t{0} - static_cast<uint64_t>(i < pick); // all ones: drop the lowest tie
    ties &= (ties - 1) | ~drop;
  }
  const uint32_t greedy = lowest_bit(ties);
  const uint32_t explore = static_cast<uint32_t>((static_cast<uint64_t>(high) * actions) >> 32);
  return static_cast<uint32_t>(r) < explore_threshold ? explore : greedy;
}

GSDK_HD float td_target(const Transition& t, float gamma, float next_max) {
  return t.terminal ? t.reward : fmaf(gamma, next_max, t.reward);
}

GSDK_HD float updated_value(float value, float target, float alpha) { return fmaf(alpha, target - value, value); }

// Whether an episode goes on for another step.
GSDK_HD bool episode_continues(uint32_t steps, uint32_t step_limit, uint32_t active, uint32_t agents) {
  return steps < step_limit && uint64_t{5} * active > agents;
}

} // namespace gsdk::qlearning
