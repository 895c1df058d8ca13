// env_backend.hpp - where a VectorEnv's games live and step: on CPU threads (cpu_env_backend.cpp) or on a CUDA
// device (cuda_env_backend.cpp). VectorEnv checks the game and the settings; a backend only runs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gsdk/core/environments/vector_env.hpp"

namespace gsdk::core {

// What every backend of one environment agrees on.
struct EnvLayout {
  uint32_t count = 0;
  uint32_t action_count = 0;
  uint32_t player_count = 0;
  uint32_t state_size = 0;
  uint64_t seed = 0;
  std::vector<uint64_t> observation_shape; // of one game
  ElementType observation_type = ElementType::uint8;
  uint64_t observation_bytes = 0; // of one game
  uint32_t max_episode_steps = 0;  // VectorEnvSettings'
  bool final_observations = false; // VectorEnvSettings'

  // Shape {count, extents...}.
  std::vector<uint64_t> batch_shape(std::vector<uint64_t> extents) const;
};

class EnvBackend {
public:
  virtual ~EnvBackend() = default;
  // A seed starts the streams over from it; without one they go on.
  virtual EnvStep reset(std::optional<uint64_t> seed) = 0;
  // states: count x state_size host bytes, none of them over (VectorEnv checks).
  virtual EnvStep reset_from_states(const unsigned char* states) = 0;
  // Refuses illegal actions (IllegalActionError) before changing any game. A CPU backend gets host actions only.
  virtual EnvStep step(const uint32_t* actions, MemoryPlace actions_place) = 0;
  virtual std::shared_ptr<EnvArray> random_actions() = 0;
  virtual std::vector<unsigned char> states_on_host() const = 0;
  // The cudaStream_t the games step on (null on the CPU): DLPack producers of device actions order their work before it.
  virtual void* cuda_stream() const { return nullptr; }
};

// force_generic: the per-state rules even when the game has batched_steps.step (what conformance compares against).
std::unique_ptr<EnvBackend> make_cpu_backend(const GameInstance& game, const EnvLayout& layout, unsigned threads,
                                             bool force_generic);
// Throws std::runtime_error in a build without CUDA.
std::unique_ptr<EnvBackend> make_cuda_backend(const GameInstance& game, const EnvLayout& layout, int32_t device);

// The codes whose mask byte is set, ascending (for IllegalActionError).
std::vector<uint32_t> legal_codes(const uint8_t* mask_row, uint32_t action_count);

// The player to move in a live state and its legal mask row (action_count bytes, every one written), by the
// per-state rules; `moves` holds max_moves() entries. Throws std::runtime_error for a move code out of range.
int32_t describe_state(const GameInstance& game, const unsigned char* state, uint32_t action_count,
                       std::vector<uint32_t>& moves, uint8_t* legal_row);

} // namespace gsdk::core
