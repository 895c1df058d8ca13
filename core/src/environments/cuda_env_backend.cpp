// cuda_env_backend.cpp - a VectorEnv's games on one CUDA device: states, masks and every output in device memory,
// stepped by the game's batched_steps.cuda_step on the environment's stream after a check of the actions on the
// device (only 4 bytes come back unless an action is bad).
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "environments/cuda_env_stream.hpp"
#include "environments/env_backend.hpp"
#include "environments/env_kernels.hpp"

namespace gsdk::core {

namespace {

constexpr uint32_t kMessageSize = 512;

class CudaEnvBackend final : public EnvBackend {
public:
  CudaEnvBackend(const GameInstance& game, const EnvLayout& layout, int32_t device)
      : game_(game), layout_(layout), stream_(std::make_shared<CudaEnvStream>(device)),
        states_(device_array(ElementType::uint8, layout.batch_shape({layout.state_size}))),
        legal_(device_array(ElementType::uint8, layout.batch_shape({layout.action_count}))),
        first_bad_(device_array(ElementType::uint32, {1})) {}

  EnvStep reset() override {
    CudaDeviceScope scope(stream_->device());
    EnvStep out = fresh_step();
    char error[kMessageSize] = {};
    check(game_.tables().batched_steps->cuda_reset(game_.handle(), states_->data(), layout_.count, stream_->device(),
                                                   stream_->handle(), out.players->as<int32_t>(),
                                                   out.legal->as<uint8_t>(), error, kMessageSize),
          "batched_steps.cuda_reset", error);
    stream_->zero(out.rewards->data(), out.rewards->bytes());
    stream_->zero(out.terminated->data(), out.terminated->bytes());
    finish(out);
    return out;
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
    char error[kMessageSize] = {};
    check(game_.tables().batched_steps->cuda_step(game_.handle(), states_->data(), actions, layout_.count,
                                                  stream_->device(), stream_->handle(), out.rewards->as<float>(),
                                                  out.terminated->as<uint8_t>(), out.players->as<int32_t>(),
                                                  out.legal->as<uint8_t>(), error, kMessageSize),
          "batched_steps.cuda_step", error);
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
    return out;
  }

  void check(int32_t status, const char* entry, const char* error) const {
    if (status != GSDK_OK)
      throw std::runtime_error(fmt::format("game '{}': {} of {} environments on CUDA device {} failed: {}",
                                           game_.game().name, entry, layout_.count, stream_->device(), error));
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

  // Observations of the new states and this backend's copy of the mask, then the wait that makes a step synchronous.
  void finish(EnvStep& out) {
    const gsdk_observations* table = game_.tables().observations;
    if (table) {
      char error[kMessageSize] = {};
      check(table->cuda_fill(game_.handle(), states_->data(), layout_.count, stream_->device(), stream_->handle(),
                             out.observations->data(), error, kMessageSize),
            "observations.cuda_fill", error);
    } else {
      stream_->copy(out.observations->data(), states_->data(), states_->bytes());
    }
    stream_->copy(legal_->data(), out.legal->data(), legal_->bytes());
    stream_->synchronize();
  }

  const GameInstance& game_;
  EnvLayout layout_;
  std::shared_ptr<CudaEnvStream> stream_;
  std::unique_ptr<EnvArray> states_;
  std::unique_ptr<EnvArray> legal_;     // the mask of the current states, the caller's copy aside
  std::unique_ptr<EnvArray> first_bad_; // one word the action check writes
  uint64_t random_calls_ = 0;
};

} // namespace

std::unique_ptr<EnvBackend> make_cuda_backend(const GameInstance& game, const EnvLayout& layout, int32_t device) {
  return std::make_unique<CudaEnvBackend>(game, layout, device);
}

} // namespace gsdk::core
