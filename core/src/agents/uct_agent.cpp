// uct_agent.cpp - the UCT agent: `roots` independent trees (root parallelisation) grown on `threads`
// threads, each tree with its own seed and playout evaluator (leaf parallelisation inside it, and
// batches of leaves under virtual loss, one GPU launch per batch); the
// root visit counts are summed per move and the most visited move is played. Trees keep the subtree
// of the moves played between searches.
//
// Under a playout budget each tree gets a fixed share and is grown by exactly one thread in a fixed
// order, so the move depends on (seed, settings, game so far) alone and not on the thread count.
#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "agents/agent_kinds.hpp"
#include "gsdk/core/agents/mcts.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::core {

namespace {

class UctAgent final : public Agent {
public:
  UctAgent(const GameInstance& game, const AgentSettings& settings)
      : game_(game), settings_(settings), moves_(game.max_moves()) {
    const unsigned hardware = available_cpu_threads();
    threads_ = settings.threads ? settings.threads : std::min<unsigned>(settings.roots, hardware);
    threads_ = std::min(threads_, settings.roots);
    const TreeSettings tree{settings.exploration, settings.leaf,      settings.max_nodes,
                            settings.batch,       settings.in_flight, settings.evaluate_children,
                            settings.draw_value};
    for (uint32_t r = 0; r < settings.roots; ++r)
      trees_.push_back(std::make_unique<SearchTree>(game, make_evaluator(game, settings, settings.leaf), tree));
  }

  void new_game(uint64_t seed) override {
    for (uint32_t r = 0; r < trees_.size(); ++r) trees_[r]->reset(derive_seed(seed, r));
  }

  uint32_t choose_move(const StateBlob& state) override {
    const auto began = std::chrono::steady_clock::now();
    const uint32_t n = game_.checked_legal_moves(state, moves_);
    if (n == 0) throw std::runtime_error(fmt::format("game '{}' has no legal move to choose from", game_.game().name));
    last_move_ = {};
    if (n == 1) return moves_[0];
    for (auto& tree : trees_) tree->set_root(state);
    search();
    // Most visits wins; ties go to the better mean for the mover, then to the earlier legal move.
    std::map<uint32_t, RootChild> merged;
    for (const auto& tree : trees_) {
      last_move_.nodes += tree->node_count();
      for (const RootChild& c : tree->root_children()) {
        RootChild& m = merged.try_emplace(c.move, RootChild{c.move, 0, 0}).first->second;
        m.visits += c.visits;
        m.points += c.points;
      }
    }
    const int32_t mover = game_.current_player(state);
    uint32_t best = moves_[0];
    uint64_t best_visits = 0;
    double best_mean = -1;
    for (uint32_t k = 0; k < n; ++k) {
      const auto it = merged.find(moves_[k]);
      if (it == merged.end() || it->second.visits == 0) continue;
      const double mean0 = it->second.points / static_cast<double>(it->second.visits);
      const double mean = mover == 0 ? mean0 : 1 - mean0;
      if (it->second.visits > best_visits || (it->second.visits == best_visits && mean > best_mean)) {
        best = moves_[k];
        best_visits = it->second.visits;
        best_mean = mean;
      }
    }
    last_move_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return best;
  }

  void observe_move(const StateBlob& before, uint32_t move) override {
    for (auto& tree : trees_) {
      if (settings_.reuse)
        tree->advance(before, move);
      else
        tree->clear();
    }
  }

  std::string describe() const override {
    return fmt::format("uct ({}, leaf={}, batch={}, inflight={}, evaluate={}, draw={}, c={}, roots={}, threads={}, "
                       "nodes={}, reuse={}, {})",
                       budget_text(settings_), settings_.leaf, settings_.batch, settings_.in_flight,
                       settings_.evaluate_children ? "children" : "leaf", settings_.draw_value, settings_.exploration,
                       settings_.roots, threads_, settings_.max_nodes, settings_.reuse ? "yes" : "no",
                       trees_[0]->evaluator().describe());
  }

private:
  // Thread w grows trees w, w + threads, ...: one iteration of each in turn until each has spent its
  // share of the playouts, the deadline passes or the stop request is raised (an iteration is one batch of
  // leaves: milliseconds).
  void search() {
    const AgentSettings move_budget = with_move_time(settings_, move_time_);
    const auto deadline = move_deadline(move_budget);
    const auto roots = static_cast<uint32_t>(trees_.size());
    std::vector<uint64_t> spent(roots, 0), budget(roots, std::numeric_limits<uint64_t>::max());
    if (move_budget.seconds <= 0)
      for (uint32_t r = 0; r < roots; ++r)
        budget[r] = move_budget.playouts / roots + (r < move_budget.playouts % roots);
    run_workers(threads_, [&](unsigned w) {
      for (bool more = true; more && std::chrono::steady_clock::now() < deadline && !stop_requested(settings_.stop);) {
        more = false;
        for (uint32_t r = w; r < roots; r += threads_) {
          if (spent[r] >= budget[r]) continue;
          spent[r] += trees_[r]->iterate(budget[r] - spent[r]);
          more = true;
        }
      }
      for (uint32_t r = w; r < roots; r += threads_) trees_[r]->settle();
    });
    for (uint64_t s : spent) last_move_.playouts += s;
  }

  const GameInstance& game_;
  AgentSettings settings_;
  std::vector<uint32_t> moves_;
  unsigned threads_ = 1;
  std::vector<std::unique_ptr<SearchTree>> trees_;
};

} // namespace

std::unique_ptr<Agent> make_uct_agent(const GameInstance& game, const AgentSettings& settings) {
  return std::make_unique<UctAgent>(game, settings);
}

} // namespace gsdk::core
