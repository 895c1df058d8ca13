// cuda_leaf_evaluator.cpp - the CUDA evaluator: the plugin's CUDA playout table on one stream with
// scratch allocated once, and its playout-batch table (when it has one) for many leaves per launch.
// Written against CudaStream, DeviceArena and PinnedBuffer, so it builds (and says why it cannot run)
// without the CUDA toolkit too.
#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "playouts/playout_calls.hpp"

namespace gsdk::core {

namespace {

// Device and pinned host room for one launch of the playout-batch table, with a stream of its own so
// that two launches can be in flight (one computing while the host prepares the other).
struct BatchSlot {
  BatchSlot(int device, DeviceArena& arena, uint32_t max_states, uint32_t state_size)
      : stream(device), states_host(uint64_t{max_states} * state_size),
        outcomes_host(uint64_t{max_states} * sizeof(gsdk_outcome_counts)),
        states_device(arena.allocate(states_host.size())),
        outcomes_device(static_cast<gsdk_outcome_counts*>(arena.allocate(outcomes_host.size()))) {}

  CudaStream stream;
  PinnedBuffer states_host;
  PinnedBuffer outcomes_host;
  void* states_device;
  gsdk_outcome_counts* outcomes_device;
};

// A started batch: either launched on a slot (results pending) or computed when it started.
struct StartedBatch {
  int slot = -1; // -1: results already in `results`
  uint32_t count = 0;
  uint32_t playouts = 0;
  std::vector<WinDrawLoss> results;
};

class CudaEvaluator final : public LeafEvaluator {
public:
  CudaEvaluator(const GameInstance& game, int device, uint64_t max_batch, uint32_t max_states)
      : game_(game), device_(device), max_batch_(max_batch), max_states_(max_states),
        scratch_size_(game.tables().cuda_playouts->scratch_bytes(game.handle(), max_batch)), stream_(device),
        arena_(device, scratch_size_ + batch_bytes(game, max_states) + 1024), scratch_(arena_.allocate(scratch_size_)),
        histogram_(game.histogram_bins()) {
    if (!batches_used(game, max_states)) return;
    for (auto& slot : slots_) slot.emplace(device, arena_, max_states, game.state_size());
    if (solves_used(game, max_states)) solve_slot_.emplace(device, arena_, max_states, game.state_size());
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
    if (!launchable(count, playouts)) return LeafEvaluator::evaluate_batch(packed_states, count, playouts);
    // Launches of at most max_states states and 2^32 playouts each.
    const auto per_launch = static_cast<uint32_t>(std::min<uint64_t>(max_states_, kMaxLaunchPlayouts / playouts));
    std::vector<WinDrawLoss> results;
    results.reserve(count);
    for (uint32_t first = 0; first < count; first += per_launch) {
      StartedBatch batch =
          launch(packed_states, first, std::min(per_launch, count - first), static_cast<uint32_t>(playouts));
      collect(batch, results);
    }
    return results;
  }

  // Without batch slots every batch is computed when it starts, which allows any number in flight.
  uint32_t overlap() const override { return slots_[0] ? kSlots : LeafEvaluator::overlap(); }

  void start_batch(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts) override {
    const bool fits = launchable(count, playouts) && count <= max_states_ && count * playouts <= kMaxLaunchPlayouts;
    if (!fits) {
      started_.push_back(
          StartedBatch{-1, count, static_cast<uint32_t>(playouts), evaluate_batch(packed_states, count, playouts)});
      return;
    }
    started_.push_back(launch(packed_states, 0, count, static_cast<uint32_t>(playouts)));
  }

  std::vector<WinDrawLoss> finish_batch() override {
    if (started_.empty()) throw std::logic_error("CudaEvaluator::finish_batch without a started batch");
    StartedBatch batch = std::move(started_.front());
    started_.pop_front();
    if (batch.slot < 0) return std::move(batch.results);
    std::vector<WinDrawLoss> results;
    results.reserve(batch.count);
    collect(batch, results);
    return results;
  }

  // Exact states are solved on a stream of their own through the plugin's playout-batch table (which
  // solves the exact states it is given), while the playout batches play them at random.
  bool solve_apart() override {
    apart_ = solve_slot_.has_value();
    return apart_;
  }
  bool solves_apart() const override { return apart_; }
  uint32_t max_solves() const override { return max_states_; }

  void start_solves(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts) override {
    if (!apart_ || solving_ || count == 0 || count > max_states_ || playouts == 0 ||
        count * playouts > kMaxLaunchPlayouts)
      throw std::logic_error(fmt::format("CudaEvaluator::start_solves: {} states x {} playouts{}", count, playouts,
                                         solving_ ? " while a solve batch is in flight" : ""));
    solving_ = enqueue(*solve_slot_, game_.tables().cuda_playout_batches->run, packed_states, 0, count,
                       static_cast<uint32_t>(playouts));
  }

  bool solves_ready() override { return !solving_ || solve_slot_->stream.idle(); }

  std::vector<WinDrawLoss> finish_solves() override {
    if (!solving_) throw std::logic_error("CudaEvaluator::finish_solves without a started solve batch");
    std::vector<WinDrawLoss> results;
    results.reserve(solving_->count);
    collect(*solve_slot_, *solving_, results);
    solving_.reset();
    return results;
  }

  std::string describe() const override {
    return fmt::format("cuda device {}{}{}", device_,
                       slots_[0] ? fmt::format(", {} leaves per launch", max_states_) : "",
                       apart_ ? ", exact states solved apart" : "");
  }

private:
  static constexpr uint64_t kMaxLaunchPlayouts = (uint64_t{1} << 32) - 1;
  static constexpr uint32_t kSlots = 2;

  static bool batches_used(const GameInstance& game, uint32_t max_states) {
    return game.tables().cuda_playout_batches && max_states > 1;
  }
  static bool solves_used(const GameInstance& game, uint32_t max_states) {
    const gsdk_exact_states* exact = game.tables().exact_states;
    return batches_used(game, max_states) && exact && exact->cuda_random_playout_batches;
  }
  // Arena room for the batch slots (none when batches go one state per launch) and the solve slot.
  static uint64_t batch_bytes(const GameInstance& game, uint32_t max_states) {
    if (!batches_used(game, max_states)) return 0;
    const uint64_t slots = kSlots + (solves_used(game, max_states) ? 1 : 0);
    return slots * (uint64_t{max_states} * (game.state_size() + sizeof(gsdk_outcome_counts)) + 512);
  }

  bool launchable(uint32_t count, uint64_t playouts) const {
    return slots_[0] && count > 1 && playouts > 0 && playouts <= kMaxLaunchPlayouts;
  }

  // The slot no started batch holds.
  int free_slot() const {
    for (int k = 0; k < static_cast<int>(kSlots); ++k) {
      bool busy = false;
      for (const StartedBatch& b : started_) busy = busy || b.slot == k;
      if (!busy) return k;
    }
    throw std::logic_error(fmt::format("CudaEvaluator: more than {} batches started at once", kSlots));
  }

  WinDrawLoss run_batch(const StateBlob& state, uint64_t count) {
    gsdk_playout_summary summary = summary_over(histogram_);
    const gsdk_playout_request request = playout_request(seed_, next_playout_, count, state.data(), GSDK_SIMD_SCALAR);
    call_plugin(
        [&](char* error, uint32_t size) {
          return game_.tables().cuda_playouts->run(game_.handle(), &request, device_, stream_.handle(), scratch_,
                                                   scratch_size_, &summary, error, size);
        },
        [&] {
          return fmt::format("{} CUDA playouts [{}, {}) on device {}", game_.game().name, next_playout_,
                             next_playout_ + count, device_);
        });
    next_playout_ += count;
    return outcome_of_histogram(histogram_, game_.score_range().first);
  }

  // Enqueues states first .. first + count - 1 of the packed states, `playouts` each, as one launch on a
  // free slot. Returns without waiting.
  StartedBatch launch(const std::vector<unsigned char>& packed_states, uint32_t first, uint32_t count,
                      uint32_t playouts) {
    const int k = free_slot();
    const auto run =
        apart_ ? game_.tables().exact_states->cuda_random_playout_batches : game_.tables().cuda_playout_batches->run;
    StartedBatch batch = enqueue(*slots_[k], run, packed_states, first, count, playouts);
    batch.slot = k;
    next_playout_ += uint64_t{count} * playouts;
    return batch;
  }

  // One launch of `run` (a playout-batch entry of the plugin) on `slot`: copy in, playouts from playout
  // next_playout_ on, copy out. The caller advances the counter (solves use no random streams).
  StartedBatch enqueue(BatchSlot& slot, decltype(gsdk_cuda_playout_batches::run) run,
                       const std::vector<unsigned char>& packed_states, uint32_t first, uint32_t count,
                       uint32_t playouts) {
    const uint64_t state_size = game_.state_size();
    std::memcpy(slot.states_host.data(), packed_states.data() + first * state_size, count * state_size);
    slot.stream.copy_to_device(slot.states_device, slot.states_host.data(), count * state_size);
    call_plugin(
        [&](char* error, uint32_t size) {
          return run(game_.handle(), seed_, next_playout_, slot.states_device, count, playouts, device_,
                     slot.stream.handle(), slot.outcomes_device, error, size);
        },
        [&] {
          return fmt::format("{} CUDA playout batch ({} states x {} playouts from playout {}) on device {}",
                             game_.game().name, count, playouts, next_playout_, device_);
        });
    slot.stream.copy_to_host(slot.outcomes_host.data(), slot.outcomes_device, count * sizeof(gsdk_outcome_counts));
    return StartedBatch{-1, count, playouts, {}};
  }

  // Waits for a launched batch and appends its outcomes to results.
  void collect(const StartedBatch& batch, std::vector<WinDrawLoss>& results) {
    collect(*slots_[batch.slot], batch, results);
  }
  void collect(BatchSlot& slot, const StartedBatch& batch, std::vector<WinDrawLoss>& results) {
    slot.stream.synchronize();
    const auto* outcomes = reinterpret_cast<const gsdk_outcome_counts*>(slot.outcomes_host.data());
    for (uint32_t i = 0; i < batch.count; ++i) {
      const WinDrawLoss r{outcomes[i].wins, outcomes[i].draws, outcomes[i].losses};
      if (r.playouts() != batch.playouts)
        throw std::runtime_error(fmt::format("{} CUDA playout batch on device {}: state {} counted {} playouts of {} "
                                             "(device result inconsistent)",
                                             game_.game().name, device_, i, r.playouts(), batch.playouts));
      results.push_back(r);
    }
  }

  const GameInstance& game_;
  int device_;
  uint64_t max_batch_;
  uint32_t max_states_;
  uint64_t scratch_size_;
  CudaStream stream_;
  DeviceArena arena_;
  void* scratch_;
  std::vector<uint64_t> histogram_;
  std::optional<BatchSlot> slots_[kSlots];
  std::deque<StartedBatch> started_;    // oldest first
  std::optional<BatchSlot> solve_slot_; // with a game that has exact states
  bool apart_ = false;                  // solve_apart() was asked for, and granted
  std::optional<StartedBatch> solving_; // the solve batch in flight
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
