// evaluation_leaf_evaluator.cpp - leaves valued by the game's evaluation instead of (or after a few plies of) a
// random playout: UCT's leaf_value=eval and leaf_value=cutoff:K. The plies run on the host through the per-state
// rules; the evaluations of a batch go to the plugin in one call, on the CPU or in one CUDA launch.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/playouts/chance_outcome.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::core {

namespace {

// Where a batch of states is evaluated: values[k] = evaluate(states[k]) for `count` packed states.
class EvaluationBackend {
public:
  virtual ~EvaluationBackend() = default;
  virtual void evaluate(const unsigned char* states, uint32_t count, int32_t* values) = 0;
  virtual std::string describe() const = 0;
};

class CpuEvaluation final : public EvaluationBackend {
public:
  explicit CpuEvaluation(const GameInstance& game) : game_(game) {}

  void evaluate(const unsigned char* states, uint32_t count, int32_t* values) override {
    call_plugin(
        [&](char* error, uint32_t size) {
          return game_.tables().evaluation->evaluate(game_.handle(), states, count, values, error, size);
        },
        [&] { return fmt::format("game '{}': evaluate of {} leaf states", game_.game().name, count); });
  }
  std::string describe() const override { return "cpu"; }

private:
  const GameInstance& game_;
};

// The plugin's cuda_evaluate on one stream, with device and pinned room for `max_states` states allocated once;
// larger calls are cut into launches of that many.
class CudaEvaluation final : public EvaluationBackend {
public:
  CudaEvaluation(const GameInstance& game, int device, uint32_t max_states)
      : game_(game), device_(device), max_states_(std::max(1u, max_states)), stream_(device),
        states_host_(uint64_t{max_states_} * game.state_size()), values_host_(uint64_t{max_states_} * sizeof(int32_t)),
        arena_(device, states_host_.size() + values_host_.size() + 1024),
        states_device_(arena_.allocate(states_host_.size())),
        values_device_(static_cast<int32_t*>(arena_.allocate(values_host_.size()))) {}

  void evaluate(const unsigned char* states, uint32_t count, int32_t* values) override {
    const uint64_t state_size = game_.state_size();
    for (uint32_t first = 0; first < count; first += max_states_) {
      const uint32_t n = std::min(max_states_, count - first);
      std::memcpy(states_host_.data(), states + uint64_t{first} * state_size, uint64_t{n} * state_size);
      stream_.copy_to_device(states_device_, states_host_.data(), uint64_t{n} * state_size);
      call_plugin(
          [&](char* error, uint32_t size) {
            return game_.tables().evaluation->cuda_evaluate(game_.handle(), states_device_, n, device_,
                                                            stream_.handle(), values_device_, error, size);
          },
          [&] {
            return fmt::format("game '{}': cuda_evaluate of {} leaf states on device {}", game_.game().name, n,
                               device_);
          });
      stream_.copy_to_host(values_host_.data(), values_device_, uint64_t{n} * sizeof(int32_t));
      stream_.synchronize();
      std::memcpy(values + first, values_host_.data(), uint64_t{n} * sizeof(int32_t));
    }
  }
  std::string describe() const override { return fmt::format("cuda device {}", device_); }

private:
  const GameInstance& game_;
  int device_;
  uint32_t max_states_;
  CudaStream stream_;
  PinnedBuffer states_host_;
  PinnedBuffer values_host_;
  DeviceArena arena_;
  void* states_device_;
  int32_t* values_device_;
};

class EvaluationLeafEvaluator final : public LeafEvaluator {
public:
  EvaluationLeafEvaluator(const GameInstance& game, uint32_t cutoff_plies, double unit,
                          std::unique_ptr<EvaluationBackend> backend)
      : game_(game), cutoff_plies_(cutoff_plies), unit_(unit), backend_(std::move(backend)),
        exact_playouts_(make_cpu_evaluator(game)), moves_(game.max_moves()), probabilities_(game.max_moves()) {}

  void reseed(uint64_t seed) override {
    LeafEvaluator::reseed(seed);
    exact_playouts_->reseed(seed);
  }

  WinDrawLoss evaluate(const StateBlob& state, uint64_t playouts) override {
    return evaluate_batch(state, 1, playouts)[0];
  }

  // Playout j of state i uses the random stream (seed, first + i * playouts + j), as the playout tables count.
  std::vector<WinDrawLoss> evaluate_batch(const std::vector<unsigned char>& packed_states, uint32_t count,
                                          uint64_t playouts) override {
    std::vector<WinDrawLoss> results(count);
    if (count == 0) return results;
    const uint32_t state_size = game_.state_size();
    stopped_.clear();
    owners_.clear();
    movers_.clear();
    StateBlob state(state_size);
    for (uint32_t i = 0; i < count; ++i) {
      const unsigned char* start = packed_states.data() + uint64_t{i} * state_size;
      state.assign(start, start + state_size);
      if (game_.is_exact(state.data())) {
        results[i] = exact_playouts_->evaluate(state, playouts);
        continue;
      }
      for (uint64_t j = 0; j < playouts; ++j) {
        rng::PhiloxStream random(seed_, next_playout_ + uint64_t{i} * playouts + j);
        state.assign(start, start + state_size);
        const int32_t mover = play_to_cutoff(state, random);
        if (mover == GSDK_PLAYER_TERMINAL) {
          results[i].add(outcome_of_score(game_.score(state)));
          continue;
        }
        stopped_.insert(stopped_.end(), state.begin(), state.end());
        owners_.push_back(i);
        movers_.push_back(mover);
      }
    }
    next_playout_ += uint64_t{count} * playouts;
    values_.resize(owners_.size());
    if (!owners_.empty()) backend_->evaluate(stopped_.data(), static_cast<uint32_t>(owners_.size()), values_.data());
    for (size_t k = 0; k < owners_.size(); ++k) {
      const double reward = 1 / (1 + std::exp(-static_cast<double>(values_[k]) / unit_));
      WinDrawLoss& r = results[owners_[k]];
      ++r.valued;
      r.valued_points += movers_[k] == 0 ? reward : 1 - reward;
    }
    return results;
  }

  std::string describe() const override {
    return fmt::format("{} evaluation{}, unit {}", backend_->describe(),
                       cutoff_plies_ ? fmt::format(" after {} random plies", cutoff_plies_) : "", unit_);
  }

private:
  // Plays the cutoff's random plies, then chance outcomes until a player is to move; returns current_player.
  int32_t play_to_cutoff(StateBlob& state, rng::PhiloxStream& random) {
    for (uint32_t ply = 0;;) {
      const int32_t player = game_.current_player(state);
      if (player == GSDK_PLAYER_TERMINAL || (player >= 0 && ply >= cutoff_plies_)) return player;
      const bool chance = player == GSDK_PLAYER_CHANCE;
      const uint32_t n = game_.legal_moves(state, moves_.data(), chance ? probabilities_.data() : nullptr);
      game_.require_moves_in_live_state(state, n);
      game_.apply_move(state,
                       moves_[chance ? chance_outcome(random.uniform(), probabilities_.data(), n) : random.below(n)]);
      ply += chance ? 0 : 1;
    }
  }

  const GameInstance& game_;
  uint32_t cutoff_plies_;
  double unit_;
  std::unique_ptr<EvaluationBackend> backend_;
  std::unique_ptr<LeafEvaluator> exact_playouts_;
  std::vector<uint32_t> moves_;
  std::vector<double> probabilities_;
  // One batch's playouts that stopped short of the end: their states, leaf indices and movers.
  std::vector<unsigned char> stopped_;
  std::vector<uint32_t> owners_;
  std::vector<int32_t> movers_;
  std::vector<int32_t> values_;
};

} // namespace

std::unique_ptr<LeafEvaluator> make_evaluation_leaf_evaluator(const GameInstance& game, uint32_t cutoff_plies,
                                                              double unit, int cuda_device, uint32_t max_states) {
  const gsdk_evaluation* table = game.tables().evaluation;
  if (!table)
    throw std::invalid_argument(fmt::format("game '{}' has no evaluation table ({}): leaf_value={} needs one",
                                            game.game().name, GSDK_TABLE_EVALUATION,
                                            cutoff_plies ? fmt::format("cutoff:{}", cutoff_plies) : "eval"));
  if (!(unit > 0)) throw std::invalid_argument(fmt::format("an evaluation unit must be above 0, got {}", unit));
  if (cuda_device < 0)
    return std::make_unique<EvaluationLeafEvaluator>(game, cutoff_plies, unit, std::make_unique<CpuEvaluation>(game));
  if (!table->cuda_evaluate)
    throw std::invalid_argument(
        fmt::format("game '{}' has no CUDA evaluation (cuda_evaluate in {}): evaluation-valued leaves with "
                    "device=cuda need one; use device=cpu",
                    game.game().name, GSDK_TABLE_EVALUATION));
  return std::make_unique<EvaluationLeafEvaluator>(game, cutoff_plies, unit,
                                                   std::make_unique<CudaEvaluation>(game, cuda_device, max_states));
}

} // namespace gsdk::core
