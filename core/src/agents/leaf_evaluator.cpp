// leaf_evaluator.cpp - win/draw/loss counting and the CPU evaluator (plugin batch table or generic).
#include "gsdk/core/agents/leaf_evaluator.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "playouts/playout_calls.hpp"

namespace gsdk::core {

WinDrawLoss outcome_of_score(int64_t score, uint64_t count) {
  WinDrawLoss r;
  (score > 0 ? r.wins : score == 0 ? r.draws : r.losses) = count;
  return r;
}

WinDrawLoss outcome_of_histogram(const std::vector<uint64_t>& histogram, int64_t score_min) {
  WinDrawLoss r;
  for (size_t k = 0; k < histogram.size(); ++k)
    r.add(outcome_of_score(score_min + static_cast<int64_t>(k), histogram[k]));
  return r;
}

std::vector<WinDrawLoss> LeafEvaluator::evaluate_batch(const std::vector<unsigned char>& packed_states, uint32_t count,
                                                       uint64_t playouts) {
  std::vector<WinDrawLoss> results;
  if (count == 0) return results;
  const size_t state_size = packed_states.size() / count;
  StateBlob state(state_size);
  for (uint32_t i = 0; i < count; ++i) {
    std::copy_n(packed_states.begin() + static_cast<std::ptrdiff_t>(i * state_size), state_size, state.begin());
    results.push_back(evaluate(state, playouts));
  }
  return results;
}

void LeafEvaluator::start_batch(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts) {
  computed_.push_back(evaluate_batch(packed_states, count, playouts));
}

std::vector<WinDrawLoss> LeafEvaluator::finish_batch() {
  if (computed_.empty()) throw std::logic_error("LeafEvaluator::finish_batch without a started batch");
  std::vector<WinDrawLoss> results = std::move(computed_.front());
  computed_.pop_front();
  return results;
}

void LeafEvaluator::start_solves(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts) {
  const uint64_t counter = next_playout_;
  solved_ = evaluate_batch(packed_states, count, playouts);
  next_playout_ = counter;
}

std::vector<WinDrawLoss> LeafEvaluator::finish_solves() {
  return std::move(solved_);
}

namespace {

// The plugin's SIMD playout loops, one call per evaluation.
class BatchCpuEvaluator final : public LeafEvaluator {
public:
  explicit BatchCpuEvaluator(const GameInstance& game)
      : game_(game), simd_level_(game.tables().cpu_playouts->best_simd_level()), histogram_(game.histogram_bins()) {}

  WinDrawLoss evaluate(const StateBlob& state, uint64_t playouts) override {
    gsdk_playout_summary summary = summary_over(histogram_);
    const gsdk_playout_request request = playout_request(seed_, next_playout_, playouts, state.data(), simd_level_);
    call_plugin(
        [&](char* error, uint32_t size) {
          return game_.tables().cpu_playouts->run(game_.handle(), &request, &summary, error, size);
        },
        [&] {
          return fmt::format("{} CPU playouts [{}, {})", game_.game().name, next_playout_, next_playout_ + playouts);
        });
    next_playout_ += playouts;
    return outcome_of_histogram(histogram_, game_.score_range().first);
  }

  std::string describe() const override { return "cpu (plugin playouts)"; }

private:
  const GameInstance& game_;
  int32_t simd_level_;
  std::vector<uint64_t> histogram_;
};

// Playouts through the per-state rules, for games without a CPU batch table.
class GenericCpuEvaluator final : public LeafEvaluator {
public:
  explicit GenericCpuEvaluator(const GameInstance& game) : game_(game) {}

  WinDrawLoss evaluate(const StateBlob& state, uint64_t playouts) override {
    WinDrawLoss r;
    for (uint64_t i = 0; i < playouts; ++i)
      r.add(outcome_of_score(generic_playout(game_, seed_, next_playout_ + i, state)));
    next_playout_ += playouts;
    return r;
  }

  std::string describe() const override { return "cpu (generic playouts)"; }

private:
  const GameInstance& game_;
};

} // namespace

std::unique_ptr<LeafEvaluator> make_cpu_evaluator(const GameInstance& game) {
  if (game.tables().cpu_playouts) return std::make_unique<BatchCpuEvaluator>(game);
  return std::make_unique<GenericCpuEvaluator>(game);
}

} // namespace gsdk::core
