// vector_env.cpp - a VectorEnv checks the game and the settings, works out the arrays' shapes and hands the games to
// a CPU or CUDA backend.
#include "gsdk/core/environments/vector_env.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "environments/env_backend.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::core {

namespace {

// What a CUDA environment needs beyond what every environment needs.
void require_cuda_tables(const GameInstance& game) {
  const PluginTables& t = game.tables();
  const auto refuse = [&](const char* entry) {
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no {}, which a CUDA environment needs; "
                                            "device=\"cpu\" works for it",
                                            game.game().name, t.path, entry));
  };
  if (!t.batched_steps || !t.batched_steps->cuda_step) refuse("gsdk.batched_steps.v1 cuda_step");
  if (!t.batched_steps->cuda_reset) refuse("gsdk.batched_steps.v1 cuda_reset");
  if (t.observations && !t.observations->cuda_fill) refuse("gsdk.observations.v1 cuda_fill");
}

// Final observations on CUDA need the device step that keeps the states episodes end in.
void require_cuda_final_states(const GameInstance& game) {
  if (cuda_step_keeping_final(*game.tables().batched_steps)) return;
  throw std::invalid_argument(fmt::format("game '{}' (plugin {}): its gsdk.batched_steps.v1 table has no "
                                          "cuda_step_keeping_final (ABI 1.13), so a CUDA environment of it cannot "
                                          "give final observations; turn them off, or use device=\"cpu\"",
                                          game.game().name, game.tables().path));
}

EnvLayout checked_layout(const GameInstance& game, const VectorEnvSettings& settings) {
  const PluginTables& t = game.tables();
  const char* name = game.game().name;
  if (settings.count == 0) throw std::invalid_argument("a vector environment needs count >= 1 games, got 0");
  if (!t.move_codes)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no gsdk.move_codes.v1 table: a vector "
                                            "environment's actions are move codes",
                                            name, t.path));
  const uint32_t players = game.game().player_count;
  if (players != 1 && players != 2)
    throw std::invalid_argument(
        fmt::format("game '{}' has {} players; vector environments pay rewards for 1 or 2 players", name, players));
  EnvLayout layout;
  layout.count = settings.count;
  layout.action_count = t.move_codes->code_count(game.handle());
  layout.player_count = players;
  layout.state_size = game.state_size();
  layout.seed = settings.seed;
  layout.max_episode_steps = settings.max_episode_steps;
  layout.final_observations = settings.final_observations;
  if (layout.action_count == 0)
    throw std::invalid_argument(fmt::format("game '{}': move_codes.code_count is 0, expected >= 1", name));
  const ObservationLayout observation = observation_layout(game);
  layout.observation_shape = observation.shape;
  layout.observation_type = observation.type;
  layout.observation_bytes = observation.bytes;
  if (!settings.cuda) return layout;
  require_cuda_tables(game);
  if (game.game().flags & GSDK_GAME_FLAG_CHANCE)
    throw std::invalid_argument(fmt::format("game '{}' has chance nodes, which batched steps (the only steps a CUDA "
                                            "environment takes) leave out; device=\"cpu\" works for it",
                                            name));
  if (settings.final_observations) require_cuda_final_states(game);
  return layout;
}

// What one game of a vector environment takes at least, on the host for the CPU or on the GPU: its state, a step's
// observation, its legal-move mask (the caller's copy and the environment's own), rewards and flags; with final
// observations, a second state and observation.
uint64_t bytes_per_game(const EnvLayout& layout) {
  constexpr uint64_t kFlagsAndCounters = 27; // terminated, truncated, ended, player, actor reward, action, steps
  const uint64_t step = layout.state_size + layout.observation_bytes + 2 * uint64_t{layout.action_count} +
                        4 * uint64_t{layout.player_count} + kFlagsAndCounters;
  return layout.final_observations ? step + layout.state_size + layout.observation_bytes : step;
}

// Refuses, before anything is allocated, a vector environment whose games do not fit in the free memory of the
// host (device="cpu") or of its GPU.
void check_memory(const GameInstance& game, const EnvLayout& layout, const VectorEnvSettings& settings) {
  const uint64_t per_game = bytes_per_game(layout);
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(per_game, uint64_t{layout.count}, &bytes)) bytes = UINT64_MAX; // more than any machine
  const std::string what = fmt::format("a vector environment of {} games of '{}'", layout.count, game.game().name);
  const std::string how = fmt::format("{} games x {} bytes", layout.count, per_game);
  if (!settings.cuda) return require_memory(bytes, available_host_memory(), "host", what, how);
  require_memory(bytes, cuda_free_memory(settings.cuda_device), fmt::format("CUDA device {}", settings.cuda_device),
                 what, how);
}

} // namespace

ObservationLayout observation_layout(const GameInstance& game) {
  const gsdk_observations* table = game.tables().observations;
  if (!table) return {{game.state_size()}, ElementType::uint8, game.state_size()};
  if (!table->shape || !table->element_type || !table->fill)
    throw std::invalid_argument(fmt::format("game '{}': its gsdk.observations.v1 table lacks shape, element_type or "
                                            "fill, which every observations table must have",
                                            game.game().name));
  uint32_t extents[GSDK_OBSERVATION_MAX_RANK] = {};
  const uint32_t rank = table->shape(game.handle(), extents, GSDK_OBSERVATION_MAX_RANK);
  if (rank < 1 || rank > GSDK_OBSERVATION_MAX_RANK)
    throw std::invalid_argument(fmt::format("game '{}': observations.shape returned rank {}, expected 1..{}",
                                            game.game().name, rank, GSDK_OBSERVATION_MAX_RANK));
  const int32_t type = table->element_type(game.handle());
  if (type != GSDK_ELEMENT_UINT8 && type != GSDK_ELEMENT_FLOAT32)
    throw std::invalid_argument(fmt::format("game '{}': observations.element_type returned {}, expected {} (uint8) or "
                                            "{} (float32)",
                                            game.game().name, type, GSDK_ELEMENT_UINT8, GSDK_ELEMENT_FLOAT32));
  ObservationLayout layout{{}, type == GSDK_ELEMENT_UINT8 ? ElementType::uint8 : ElementType::float32, 0};
  layout.bytes = element_bytes(layout.type);
  for (uint32_t d = 0; d < rank; ++d) {
    if (extents[d] == 0)
      throw std::invalid_argument(fmt::format(
          "game '{}': observations.shape gives extent 0 in dimension {}, expected >= 1", game.game().name, d));
    layout.shape.push_back(extents[d]);
    layout.bytes *= extents[d];
  }
  return layout;
}

std::vector<uint64_t> EnvLayout::batch_shape(std::vector<uint64_t> extents) const {
  extents.insert(extents.begin(), count);
  return extents;
}

std::vector<uint32_t> legal_codes(const uint8_t* mask_row, uint32_t action_count) {
  std::vector<uint32_t> codes;
  for (uint32_t c = 0; c < action_count; ++c)
    if (mask_row[c]) codes.push_back(c);
  return codes;
}

int32_t describe_state(const GameInstance& game, const unsigned char* state, uint32_t action_count,
                       std::vector<uint32_t>& moves, uint8_t* legal_row) {
  std::fill_n(legal_row, action_count, uint8_t{0});
  const uint32_t n = game.game().legal_moves(game.handle(), state, moves.data(), nullptr);
  const gsdk_move_codes& codes = *game.tables().move_codes;
  for (uint32_t m = 0; m < n; ++m) {
    const uint32_t code = codes.move_code(game.handle(), state, moves[m]);
    if (code >= action_count)
      throw std::runtime_error(fmt::format("game '{}': move {} has code {}, but code_count is {}", game.game().name,
                                           moves[m], code, action_count));
    legal_row[code] = 1;
  }
  return game.current_player(state);
}

IllegalActionError::IllegalActionError(uint32_t environment, uint32_t action, uint32_t action_count,
                                       const std::vector<uint32_t>& legal)
    : std::invalid_argument(action >= action_count
                                ? fmt::format("action {} of environment {} is out of range: expected a move code in "
                                              "0..{}; legal there: [{}]",
                                              action, environment, action_count - 1, fmt::join(legal, ", "))
                                : fmt::format("action {} of environment {} is not legal there; legal codes: [{}]",
                                              action, environment, fmt::join(legal, ", "))),
      environment_(environment), action_(action) {}

VectorEnv::VectorEnv(const GameInstance& game, VectorEnvSettings settings) : game_(game), settings_(settings) {
  const EnvLayout layout = checked_layout(game, settings_);
  check_memory(game, layout, settings_);
  action_count_ = layout.action_count;
  observation_shape_ = layout.observation_shape;
  observation_type_ = layout.observation_type;
  const unsigned threads = settings_.threads == 0 ? available_cpu_threads() : settings_.threads;
  backend_ = settings_.cuda ? make_cuda_backend(game, layout, settings_.cuda_device)
                            : make_cpu_backend(game, layout, threads, settings_.force_generic);
}

VectorEnv::~VectorEnv() = default;

uint32_t VectorEnv::player_count() const {
  return game_.game().player_count;
}

EnvStep VectorEnv::reset(std::optional<uint64_t> seed) {
  EnvStep first = backend_->reset(seed);
  if (seed) settings_.seed = *seed;
  started_ = true;
  return first;
}

EnvStep VectorEnv::reset_from_states(const unsigned char* states, uint64_t bytes) {
  const uint64_t state_size = game_.state_size();
  if (!states || bytes != uint64_t{settings_.count} * state_size)
    throw std::invalid_argument(fmt::format("VectorEnv::reset_from_states: {} bytes of states, expected {} games of "
                                            "{} bytes ({})",
                                            states ? bytes : 0, settings_.count, state_size,
                                            uint64_t{settings_.count} * state_size));
  for (uint32_t k = 0; k < settings_.count; ++k)
    if (game_.current_player(states + k * state_size) == GSDK_PLAYER_TERMINAL)
      throw std::invalid_argument(fmt::format("VectorEnv::reset_from_states: the state of environment {} is a "
                                              "finished game, expected one with a move to make",
                                              k));
  EnvStep first = backend_->reset_from_states(states);
  started_ = true;
  return first;
}

EnvStep VectorEnv::step(const uint32_t* actions, MemoryPlace actions_place) {
  if (!started_) throw std::logic_error("VectorEnv::step before reset(): the games have no state yet");
  if (!actions) throw std::invalid_argument("VectorEnv::step: actions is null, expected count() move codes");
  if (actions_place == MemoryPlace::cuda && !on_cuda())
    throw std::invalid_argument("VectorEnv::step: actions in CUDA device memory, but this environment is on the CPU "
                                "(pass host memory)");
  return backend_->step(actions, actions_place);
}

std::shared_ptr<EnvArray> VectorEnv::random_actions() {
  if (!started_) throw std::logic_error("VectorEnv::random_actions before reset(): the games have no legal moves yet");
  return backend_->random_actions();
}

void* VectorEnv::cuda_stream() const {
  return backend_->cuda_stream();
}

std::vector<unsigned char> VectorEnv::states_on_host() const {
  return backend_->states_on_host();
}

} // namespace gsdk::core
