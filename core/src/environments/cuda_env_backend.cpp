// cuda_env_backend.cpp - a VectorEnv's games on one CUDA device: states, masks and every output in device memory,
// stepped by the game's batched_steps.cuda_step (cuda_step_keeping_final with final observations) on the
// environment's stream after a check of the actions on the device (only 4 bytes come back unless an action is bad),
// then the episodes' ends (step limit, final states) by the environment's own kernel.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "environments/cuda_env_stream.hpp"
#include "environments/env_backend.hpp"
#include "environments/env_kernels.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::core {

namespace {

class CudaEnvBackend final : public EnvBackend {
public:
  CudaEnvBackend(const GameInstance& game, const EnvLayout& layout, int32_t device)
      : game_(game), layout_(layout), stream_(std::make_shared<CudaEnvStream>(device)),
        states_(device_array(ElementType::uint8, layout.batch_shape({layout.state_size}))),
        legal_(device_array(ElementType::uint8, layout.batch_shape({layout.action_count}))),
        players_(device_array(ElementType::int32, layout.batch_shape({}))),
        first_bad_(device_array(ElementType::uint32, {1})) {
    CudaDeviceScope scope(stream_->device());
    if (layout.final_observations)
      final_states_ = device_array(ElementType::uint8, layout.batch_shape({layout.state_size}));
    if (layout.max_episode_steps == 0) return;
    episode_steps_ = device_array(ElementType::uint32, {layout.count});
    initial_state_ = device_array(ElementType::uint8, {layout.state_size});
    initial_player_ = device_array(ElementType::int32, {1});
    initial_legal_ = device_array(ElementType::uint8, {layout.action_count});
    reset_games(initial_state_->data(), 1, initial_player_->as<int32_t>(), initial_legal_->as<uint8_t>());
  }

  EnvStep reset(std::optional<uint64_t> seed) override {
    CudaDeviceScope scope(stream_->device());
    if (seed) {
      layout_.seed = *seed;
      random_calls_ = 0;
    }
    EnvStep out = fresh_step();
    reset_games(states_->data(), layout_.count, out.players->as<int32_t>(), out.legal->as<uint8_t>());
    return started(out);
  }

  EnvStep reset_from_states(const unsigned char* states) override {
    CudaDeviceScope scope(stream_->device());
    std::vector<int32_t> players(layout_.count);
    std::vector<uint8_t> legal(static_cast<size_t>(layout_.count) * layout_.action_count);
    std::vector<uint32_t> moves(game_.max_moves());
    for (size_t k = 0; k < layout_.count; ++k)
      players[k] = describe_state(game_, states + k * layout_.state_size, layout_.action_count, moves,
                                  legal.data() + k * layout_.action_count);
    EnvStep out = fresh_step();
    stream_->copy(states_->data(), states, states_->bytes());
    stream_->copy(out.players->data(), players.data(), out.players->bytes());
    stream_->copy(out.legal->data(), legal.data(), out.legal->bytes());
    stream_->synchronize(); // the host vectors die here
    return started(out);
  }

  EnvStep step(const uint32_t* actions, MemoryPlace actions_place) override {
    CudaDeviceScope scope(stream_->device());
    std::unique_ptr<EnvArray> uploaded;
    if (actions_place == MemoryPlace::host) {
      uploaded = device_array(ElementType::uint32, {layout_.count});
      stream_->copy(uploaded->data(), actions, uploaded->bytes());
      actions = uploaded->as<uint32_t>();
    }
    refuse_illegal(actions);
    EnvStep out = fresh_step();
    const gsdk_batched_steps& table = *game_.tables().batched_steps;
    if (final_states_)
      call_table("batched_steps.cuda_step_keeping_final", [&](char* error, uint32_t size) {
        return cuda_step_keeping_final(table)(game_.handle(), states_->data(), actions, layout_.count,
                                              stream_->device(), stream_->handle(), out.rewards->as<float>(),
                                              out.terminated->as<uint8_t>(), out.players->as<int32_t>(),
                                              out.legal->as<uint8_t>(), final_states_->data(), error, size);
      });
    else
      call_table("batched_steps.cuda_step", [&](char* error, uint32_t size) {
        return table.cuda_step(game_.handle(), states_->data(), actions, layout_.count, stream_->device(),
                               stream_->handle(), out.rewards->as<float>(), out.terminated->as<uint8_t>(),
                               out.players->as<int32_t>(), out.legal->as<uint8_t>(), error, size);
      });
    end_episodes(out);
    if (final_states_) {
      out.final_observations = device_array(layout_.observation_type, layout_.batch_shape(layout_.observation_shape));
      observe(final_states_->data(), *out.final_observations);
    }
    finish(out);
    return out;
  }

  std::shared_ptr<EnvArray> random_actions() override {
    CudaDeviceScope scope(stream_->device());
    std::shared_ptr<EnvArray> codes = device_array(ElementType::uint32, {layout_.count});
    env_kernels::random_actions(layout_.seed, random_calls_++, legal_->as<uint8_t>(), layout_.count,
                                layout_.action_count, codes->as<uint32_t>(), stream_->handle());
    stream_->synchronize();
    return codes;
  }

  void* cuda_stream() const override { return stream_->handle(); }

  std::vector<unsigned char> states_on_host() const override {
    std::vector<unsigned char> states(states_->bytes());
    stream_->copy(states.data(), states_->data(), states.size());
    stream_->synchronize();
    return states;
  }

private:
  std::unique_ptr<EnvArray> device_array(ElementType type, std::vector<uint64_t> shape) const {
    return std::make_unique<EnvArray>(type, std::move(shape), stream_);
  }

  EnvStep fresh_step() const {
    EnvStep out;
    out.observations = device_array(layout_.observation_type, layout_.batch_shape(layout_.observation_shape));
    out.rewards = device_array(ElementType::float32, layout_.batch_shape({layout_.player_count}));
    out.terminated = device_array(ElementType::uint8, layout_.batch_shape({}));
    out.players = device_array(ElementType::int32, layout_.batch_shape({}));
    out.legal = device_array(ElementType::uint8, layout_.batch_shape({layout_.action_count}));
    out.truncated = device_array(ElementType::uint8, layout_.batch_shape({}));
    out.actor_rewards = device_array(ElementType::float32, layout_.batch_shape({}));
    out.ended = device_array(ElementType::uint8, layout_.batch_shape({}));
    return out;
  }

  // The game's cuda_reset of `count` games into the given device arrays.
  void reset_games(void* states, uint32_t count, int32_t* players, uint8_t* legal) const {
    call_table("batched_steps.cuda_reset", [&](char* error, uint32_t size) {
      return game_.tables().batched_steps->cuda_reset(game_.handle(), states, count, stream_->device(),
                                                      stream_->handle(), players, legal, error, size);
    });
  }

  // A fresh episode in every game, its states, players and masks in place: no rewards, nothing ended, step counts 0.
  EnvStep started(EnvStep& out) {
    stream_->zero(out.rewards->data(), out.rewards->bytes());
    stream_->zero(out.terminated->data(), out.terminated->bytes());
    stream_->zero(out.truncated->data(), out.truncated->bytes());
    stream_->zero(out.actor_rewards->data(), out.actor_rewards->bytes());
    stream_->zero(out.ended->data(), out.ended->bytes());
    if (episode_steps_) stream_->zero(episode_steps_->data(), episode_steps_->bytes());
    finish(out);
    return out;
  }

  // Step counts, truncation, final states, the union of the ends and the movers' rewards after the game's step.
  void end_episodes(EnvStep& out) {
    env_kernels::EpisodeEnds ends;
    ends.count = layout_.count;
    ends.state_size = layout_.state_size;
    ends.action_count = layout_.action_count;
    ends.player_count = layout_.player_count;
    ends.rewards = out.rewards->as<float>();
    ends.players_before = players_->as<int32_t>();
    ends.actor_rewards = out.actor_rewards->as<float>();
    ends.max_episode_steps = layout_.max_episode_steps;
    ends.terminated = out.terminated->as<uint8_t>();
    ends.episode_steps = episode_steps_ ? episode_steps_->as<uint32_t>() : nullptr;
    ends.truncated = out.truncated->as<uint8_t>();
    ends.ended = out.ended->as<uint8_t>();
    ends.states = states_->as<uint8_t>();
    ends.players = out.players->as<int32_t>();
    ends.legal = out.legal->as<uint8_t>();
    ends.final_states = final_states_ ? final_states_->as<uint8_t>() : nullptr;
    if (episode_steps_) {
      ends.initial_state = initial_state_->as<uint8_t>();
      ends.initial_player = initial_player_->as<int32_t>();
      ends.initial_legal = initial_legal_->as<uint8_t>();
    }
    env_kernels::end_episodes(ends, stream_->handle());
  }

  // The observations of `states` (count games in device memory) into `observations`.
  void observe(const void* states, EnvArray& observations) const {
    const gsdk_observations* table = game_.tables().observations;
    if (!table) {
      stream_->copy(observations.data(), states, observations.bytes());
      return;
    }
    call_table("observations.cuda_fill", [&](char* error, uint32_t size) {
      return table->cuda_fill(game_.handle(), states, layout_.count, stream_->device(), stream_->handle(),
                              observations.data(), error, size);
    });
  }

  // Calls a table entry (entry(error, error_size)); a failure names the game, the entry and the device.
  template <typename Entry> void call_table(const char* name, Entry&& entry) const {
    call_plugin(std::forward<Entry>(entry), [&] {
      return fmt::format("game '{}': {} of {} environments on CUDA device {}", game_.game().name, name, layout_.count,
                         stream_->device());
    });
  }

  // Before any game changes: the lowest game whose action is out of range or not legal there.
  void refuse_illegal(const uint32_t* actions) {
    env_kernels::find_first_illegal(actions, legal_->as<uint8_t>(), layout_.count, layout_.action_count,
                                    first_bad_->as<uint32_t>(), stream_->handle());
    uint32_t bad = UINT32_MAX;
    stream_->copy(&bad, first_bad_->data(), sizeof bad);
    stream_->synchronize();
    if (bad == UINT32_MAX) return;
    uint32_t action = 0;
    std::vector<uint8_t> row(layout_.action_count);
    stream_->copy(&action, actions + bad, sizeof action);
    stream_->copy(row.data(), legal_->as<uint8_t>() + static_cast<uint64_t>(bad) * layout_.action_count, row.size());
    stream_->synchronize();
    throw IllegalActionError(bad, action, layout_.action_count, legal_codes(row.data(), layout_.action_count));
  }

  // Observations of the new states and this backend's copies of the mask and players, then the wait that makes a
  // step synchronous.
  void finish(EnvStep& out) {
    observe(states_->data(), *out.observations);
    stream_->copy(legal_->data(), out.legal->data(), legal_->bytes());
    stream_->copy(players_->data(), out.players->data(), players_->bytes());
    stream_->synchronize();
  }

  const GameInstance& game_;
  EnvLayout layout_;
  std::shared_ptr<CudaEnvStream> stream_;
  std::unique_ptr<EnvArray> states_;
  std::unique_ptr<EnvArray> legal_;        // the mask of the current states, the caller's copy aside
  std::unique_ptr<EnvArray> players_;      // the players to move in the current states, likewise
  std::unique_ptr<EnvArray> first_bad_;    // one word the action check writes
  std::unique_ptr<EnvArray> final_states_; // with final observations: the states the last step's episodes ended in
  // With a step limit: each game's steps in its episode, and the initial rows a truncated game restarts from.
  std::unique_ptr<EnvArray> episode_steps_, initial_state_, initial_player_, initial_legal_;
  uint64_t random_calls_ = 0;
};

} // namespace

std::unique_ptr<EnvBackend> make_cuda_backend(const GameInstance& game, const EnvLayout& layout, int32_t device) {
  return std::make_unique<CudaEnvBackend>(game, layout, device);
}

} // namespace gsdk::core
