// vector_env.hpp - n games of one instance stepped together for learners (the Python module's gsdk.VectorEnv):
// actions are move codes, rewards are paid when a game ends and the game starts again at once (auto-reset), as the
// ABI 1.11 comment in gsdk_plugin.h says; optionally a step limit truncates an episode, and the step keeps the last
// observation of every episode it ends (Gymnasium's same-step auto-reset). Every game draws its chance outcomes and
// random actions from streams keyed by (seed, game index), so trajectories do not depend on the thread count or on
// CPU versus CUDA.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsdk/core/environments/env_array.hpp"
#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

struct VectorEnvSettings {
  uint32_t count = 1;
  uint64_t seed = 0;
  bool cuda = false;
  int32_t cuda_device = 0;
  unsigned threads = 0; // 0: all
  // CPU: step through the per-state rules even when the game has batched_steps.step (what the conformance suite
  // and the tests compare the batched path against).
  bool force_generic = false;
  // An episode that has made this many steps without ending is truncated and restarted (0: no limit).
  uint32_t max_episode_steps = 0;
  // Every step also gives the observations of the states its episodes ended in (EnvStep::final_observations). On
  // the CPU a game whose batched steps cannot keep final states (before ABI 1.13) steps by the per-state rules; on
  // CUDA it is refused.
  bool final_observations = false;
};

// Shapes {n, observation...}, {n, players}, {n}, {n}, {n, action_count}, {n}, {n}, {n}; element types
// observation_type(), float32, uint8, int32, uint8, uint8, float32, uint8. Every array of a step is fresh: the
// caller may keep it. terminated and truncated are exclusive (a game that ends on its last allowed step is
// terminated); ended is their union. actor_rewards[k] is the reward of the player who made game k's move (the
// player to move before the step), 0 from a reset.
// final_observations (only with VectorEnvSettings::final_observations, and not from a reset): row k is the
// observation of the state game k's episode ended in where terminated or truncated, else the row of observations.
struct EnvStep {
  std::shared_ptr<EnvArray> observations, rewards, terminated, players, legal, truncated, actor_rewards, ended;
  std::shared_ptr<EnvArray> final_observations;
};

// What a learner sees of one state of a game: its observations table's shape, element type and size in bytes, or,
// without the table, the state's bytes (uint8, {state_size}).
struct ObservationLayout {
  std::vector<uint64_t> shape;
  ElementType type = ElementType::uint8;
  uint64_t bytes = 0;
};

// Checks the game's observations table (its entries set, rank 1..GSDK_OBSERVATION_MAX_RANK, extents >= 1, a known
// element type) and throws std::invalid_argument naming the game and what the table returned.
ObservationLayout observation_layout(const GameInstance& game);

// An action that is out of range or not legal in its game; names the game index, the action and the legal codes.
class IllegalActionError : public std::invalid_argument {
public:
  IllegalActionError(uint32_t environment, uint32_t action, uint32_t action_count, const std::vector<uint32_t>& legal);
  uint32_t environment() const { return environment_; }
  uint32_t action() const { return action_; }

private:
  uint32_t environment_;
  uint32_t action_;
};

class EnvBackend;

// One caller at a time (its calls are not thread-safe; each call spreads its own work over threads). `game` must
// outlive it; the arrays it hands out need neither.
class VectorEnv {
public:
  // Throws std::invalid_argument naming what is missing: move codes, the CUDA tables for settings.cuda, a count.
  VectorEnv(const GameInstance& game, VectorEnvSettings settings);
  ~VectorEnv();
  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;

  uint32_t count() const { return settings_.count; }
  uint32_t action_count() const { return action_count_; }
  uint32_t player_count() const;
  // The game's observations, or its state bytes as uint8 of shape {state_size} when it has no observations table.
  const std::vector<uint64_t>& observation_shape() const { return observation_shape_; }
  ElementType observation_type() const { return observation_type_; }
  bool on_cuda() const { return settings_.cuda; }
  uint32_t max_episode_steps() const { return settings_.max_episode_steps; }
  bool final_observations() const { return settings_.final_observations; }
  int32_t cuda_device() const { return settings_.cuda_device; }
  // The cudaStream_t this environment's work is queued on (null on the CPU), for DLPack's stream handshake.
  void* cuda_stream() const;

  // Every game to the initial state (chance nodes resolved from its stream); zero rewards, nothing terminated. A
  // seed replaces the settings' one (the streams start over); without one the games go on drawing from theirs.
  EnvStep reset(std::optional<uint64_t> seed = std::nullopt);
  // Every game from the given states, count() x state size bytes on the host, chance nodes resolved; an episode
  // that ends restarts from the initial state. Throws std::invalid_argument naming the first state that is over.
  EnvStep reset_from_states(const unsigned char* states, uint64_t bytes);
  // One move code per game, in host or CUDA memory (of this env's device). Synchronous: when it returns the arrays
  // are ready. Refuses before changing any game: IllegalActionError for the lowest game whose action is bad,
  // std::logic_error before reset().
  EnvStep step(const uint32_t* actions, MemoryPlace actions_place);
  // A uniformly random legal code per game, {n} uint32 in the env's memory place: stream (seed, game) of a domain
  // of its own, the call number as counter, the same on CPU and CUDA.
  std::shared_ptr<EnvArray> random_actions();
  // The n states back to back, on the host (for tests and digests).
  std::vector<unsigned char> states_on_host() const;

private:
  const GameInstance& game_;
  VectorEnvSettings settings_;
  uint32_t action_count_ = 0;
  std::vector<uint64_t> observation_shape_;
  ElementType observation_type_ = ElementType::uint8;
  std::unique_ptr<EnvBackend> backend_;
  bool started_ = false; // reset() called: the games have states and masks
};

} // namespace gsdk::core
