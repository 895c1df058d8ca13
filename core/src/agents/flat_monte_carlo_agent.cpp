// flat_monte_carlo_agent.cpp - flat Monte Carlo: the budget spread evenly over the root moves, each
// judged by the mean result of random playouts after it; the best mean for the mover is played.
#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "agents/agent_kinds.hpp"

namespace gsdk::core {

namespace {

// Largest CUDA call: bounds the scratch of a big playout budget (longer calls are cut).
constexpr uint64_t kMaxBatch = uint64_t{1} << 22;
// Playouts per CPU call between looks at the stop request: tens of milliseconds for the slowest games' playouts,
// and calls so long that their overhead does not show. Cutting a count into calls gives the same results: call
// after call, the evaluator's playouts keep their numbers (leaf_evaluator.hpp).
constexpr uint64_t kCpuCallPlayouts = uint64_t{1} << 16;

class FlatMonteCarloAgent final : public Agent {
public:
  FlatMonteCarloAgent(const GameInstance& game, const AgentSettings& settings)
      : game_(game), settings_(settings), moves_(game.max_moves()),
        evaluator_(make_evaluator(
            // set_move_time may turn a playout budget into rounds of `leaf` playouts: room for either.
            game, settings,
            std::min<uint64_t>(kMaxBatch, settings.seconds > 0
                                              ? settings.leaf
                                              : std::max<uint64_t>(settings.leaf, settings.playouts)))),
        call_playouts_(settings.device == PlayoutDevice::cuda ? kMaxBatch : kCpuCallPlayouts) {}

  void new_game(uint64_t seed) override { evaluator_->reseed(seed); }

  uint32_t choose_move(const StateBlob& state) override {
    const auto began = std::chrono::steady_clock::now();
    const uint32_t n = game_.checked_legal_moves(state, moves_);
    if (n == 0) throw std::runtime_error(fmt::format("game '{}' has no legal move to choose from", game_.game().name));
    last_move_ = {};
    if (n == 1) return moves_[0];
    const int32_t mover = game_.current_player(state);
    std::vector<StateBlob> children(n, state);
    for (uint32_t k = 0; k < n; ++k) game_.apply_move(children[k], moves_[k]);
    std::vector<WinDrawLoss> results(n);
    const AgentSettings budget = with_move_time(settings_, move_time_);
    const auto deadline = move_deadline(budget);
    // Under a playout budget one call per move (the remainder to the first moves); under a time budget
    // rounds of `leaf` playouts per move until the deadline, at least one round.
    if (budget.seconds <= 0) {
      for (uint32_t k = 0; k < n; ++k) results[k] = run(children[k], budget.playouts / n + (k < budget.playouts % n));
    } else {
      do {
        for (uint32_t k = 0; k < n; ++k) results[k].add(run(children[k], settings_.leaf));
      } while (std::chrono::steady_clock::now() < deadline && !stop_requested(settings_.stop));
    }
    uint32_t best = 0;
    double best_mean = -1;
    for (uint32_t k = 0; k < n; ++k) {
      last_move_.playouts += results[k].playouts();
      if (results[k].playouts() == 0) continue;
      const double mean0 = results[k].points() / static_cast<double>(results[k].playouts());
      const double mean = mover == 0 ? mean0 : 1 - mean0;
      if (mean > best_mean) {
        best_mean = mean;
        best = k;
      }
    }
    last_move_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return moves_[best];
  }

  void observe_move(const StateBlob&, uint32_t) override {}

  std::string describe() const override {
    return fmt::format("flatmc ({}, leaf={}, {})", budget_text(settings_), settings_.leaf, evaluator_->describe());
  }

private:
  // A finished game after the move is scored exactly, with the weight of the playouts it stands for. A count
  // goes to the evaluator in calls of call_playouts_, and a raised stop request ends it after the current call.
  WinDrawLoss run(const StateBlob& child, uint64_t playouts) {
    if (playouts == 0) return {};
    if (game_.current_player(child) == GSDK_PLAYER_TERMINAL) return outcome_of_score(game_.score(child), playouts);
    WinDrawLoss result;
    for (uint64_t done = 0; done < playouts && !stop_requested(settings_.stop);) {
      const uint64_t call = std::min(call_playouts_, playouts - done);
      result.add(evaluator_->evaluate(child, call));
      done += call;
    }
    return result;
  }

  const GameInstance& game_;
  AgentSettings settings_;
  std::vector<uint32_t> moves_;
  std::unique_ptr<LeafEvaluator> evaluator_;
  uint64_t call_playouts_;
};

} // namespace

std::unique_ptr<Agent> make_flat_monte_carlo_agent(const GameInstance& game, const AgentSettings& settings) {
  return std::make_unique<FlatMonteCarloAgent>(game, settings);
}

} // namespace gsdk::core
