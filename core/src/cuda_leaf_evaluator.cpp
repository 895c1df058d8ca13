// cuda_leaf_evaluator.cpp - the CUDA evaluator: the plugin's CUDA playout table on one stream with
// scratch allocated once, and its playout-batch table (when it has one) for many leaves per launch.
// Written against CudaStream, DeviceArena and PinnedBuffer, so it builds (and says why it cannot run)
// without the CUDA toolkit too.
#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/cuda_devices.hpp"
#include "gsdk/core/leaf_evaluator.hpp"
#include "playout_calls.hpp"

namespace gsdk::core {

namespace {

constexpr uint32_t kMessageSize = 1024;

// Device and pinned host room for one launch of the playout-batch table.
struct BatchBuffers {
  BatchBuffers(DeviceArena& arena, uint32_t max_states, uint32_t state_size)
      : max_states(max_states), states_host(uint64_t{max_states} * state_size),
        outcomes_host(uint64_t{max_states} * sizeof(gsdk_outcome_counts)),
        states_device(arena.allocate(states_host.size())),
        outcomes_device(static_cast<gsdk_outcome_counts*>(arena.allocate(outcomes_host.size()))) {}

  uint32_t max_states;
  PinnedBuffer states_host;
  PinnedBuffer outcomes_host;
  void* states_device;
  gsdk_outcome_counts* outcomes_device;
};

class CudaEvaluator final : public LeafEvaluator {
public:
  CudaEvaluator(const GameInstance& game, int device, uint64_t max_batch, uint32_t max_states)
      : game_(game), device_(device), max_batch_(max_batch),
        scratch_size_(game.tables().cuda_playouts->scratch_bytes(game.handle(), max_batch)), stream_(device),
        arena_(device, scratch_size_ + batch_bytes(game, max_states) + 1024), scratch_(arena_.allocate(scratch_size_)),
        histogram_(game.histogram_bins()) {
    if (batches_used(game, max_states)) batches_.emplace(arena_, max_states, game.state_size());
  }

  WinDrawLoss evaluate(const StateBlob& state, uint64_t playouts) override {
    WinDrawLoss r;
    for (uint64_t done = 0; done < playouts;) {
      const uint64_t count = std::min(max_batch_, playouts - done);
      r.add(run_batch(state, count));
      done += count;
    }
    return r;
  }

  std::vector<WinDrawLoss> evaluate_batch(const std::vector<unsigned char>& packed_states, uint32_t count,
                                          uint64_t playouts) override {
    if (!batches_ || count <= 1 || playouts == 0 || playouts > kMaxLaunchPlayouts)
      return LeafEvaluator::evaluate_batch(packed_states, count, playouts);
    // Launches of at most max_states states and 2^32 playouts each.
    const auto per_launch = static_cast<uint32_t>(
        std::min<uint64_t>(batches_->max_states, kMaxLaunchPlayouts / playouts));
    std::vector<WinDrawLoss> results;
    results.reserve(count);
    for (uint32_t first = 0; first < count; first += per_launch)
      launch(packed_states, first, std::min(per_launch, count - first), static_cast<uint32_t>(playouts), results);
    return results;
  }

  std::string describe() const override {
    return fmt::format("cuda device {}{}", device_, batches_ ? fmt::format(", {} leaves per launch", batches_->max_states) : "");
  }

private:
  static constexpr uint64_t kMaxLaunchPlayouts = (uint64_t{1} << 32) - 1;

  static bool batches_used(const GameInstance& game, uint32_t max_states) {
    return game.tables().cuda_playout_batches && max_states > 1;
  }
  // Arena room for the batch buffers (none when batches go one state per launch).
  static uint64_t batch_bytes(const GameInstance& game, uint32_t max_states) {
    if (!batches_used(game, max_states)) return 0;
    return uint64_t{max_states} * (game.state_size() + sizeof(gsdk_outcome_counts)) + 512;
  }

  WinDrawLoss run_batch(const StateBlob& state, uint64_t count) {
    gsdk_playout_summary summary = summary_over(histogram_);
    const gsdk_playout_request request = playout_request(seed_, next_playout_, count, state.data(), GSDK_SIMD_SCALAR);
    char error[kMessageSize] = {};
    if (game_.tables().cuda_playouts->run(game_.handle(), &request, device_, stream_.handle(), scratch_, scratch_size_,
                                          &summary, error, kMessageSize) != GSDK_OK)
      throw std::runtime_error(fmt::format("{} CUDA playouts [{}, {}) on device {} failed: {}", game_.game().name,
                                           next_playout_, next_playout_ + count, device_, error));
    next_playout_ += count;
    return outcome_of_histogram(histogram_, game_.score_range().first);
  }

  // States first .. first + count - 1 of the packed states, `playouts` each, in one launch.
  void launch(const std::vector<unsigned char>& packed_states, uint32_t first, uint32_t count, uint32_t playouts,
              std::vector<WinDrawLoss>& results) {
    const uint64_t state_size = game_.state_size();
    std::memcpy(batches_->states_host.data(), packed_states.data() + first * state_size, count * state_size);
    stream_.copy_to_device(batches_->states_device, batches_->states_host.data(), count * state_size);
    char error[kMessageSize] = {};
    if (game_.tables().cuda_playout_batches->run(game_.handle(), seed_, next_playout_, batches_->states_device, count,
                                                 playouts, device_, stream_.handle(), batches_->outcomes_device, error,
                                                 kMessageSize) != GSDK_OK)
      throw std::runtime_error(fmt::format("{} CUDA playout batch ({} states x {} playouts from playout {}) on device {} "
                                           "failed: {}",
                                           game_.game().name, count, playouts, next_playout_, device_, error));
    stream_.copy_to_host(batches_->outcomes_host.data(), batches_->outcomes_device, count * sizeof(gsdk_outcome_counts));
    stream_.synchronize();
    const auto* outcomes = reinterpret_cast<const gsdk_outcome_counts*>(batches_->outcomes_host.data());
    for (uint32_t i = 0; i < count; ++i) {
      const WinDrawLoss r{outcomes[i].wins, outcomes[i].draws, outcomes[i].losses};
      if (r.playouts() != playouts)
        throw std::runtime_error(fmt::format("{} CUDA playout batch on device {}: state {} counted {} playouts of {} "
                                             "(device result inconsistent)",
                                             game_.game().name, device_, first + i, r.playouts(), playouts));
      results.push_back(r);
    }
    next_playout_ += uint64_t{count} * playouts;
  }

  const GameInstance& game_;
  int device_;
  uint64_t max_batch_;
  uint64_t scratch_size_;
  CudaStream stream_;
  DeviceArena arena_;
  void* scratch_;
  std::vector<uint64_t> histogram_;
  std::optional<BatchBuffers> batches_;
};

} // namespace

std::unique_ptr<LeafEvaluator> make_cuda_evaluator(const GameInstance& game, int device, uint64_t max_batch,
                                                   uint32_t max_states) {
  if (!game.tables().cuda_playouts)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA playout table; use device=cpu",
                                            game.game().name, game.tables().path));
  return std::make_unique<CudaEvaluator>(game, device, std::max<uint64_t>(1, max_batch), std::max(1u, max_states));
}

} // namespace gsdk::core
