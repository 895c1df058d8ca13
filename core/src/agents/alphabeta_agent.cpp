// alphabeta_agent.cpp - the generic alpha-beta agent: negamax with principal variation search (null windows for
// every move after the first, a re-search when one beats the window) and iterative deepening, a transposition table
// keyed by the game's state hash, move ordering (move_ordering.hpp: the table's move, the game's evaluation of the
// children in one batched call per node, the history heuristic), aspiration windows and a per-move clock
// (iteration_clock.hpp). A state the game puts in its exact range
// (gsdk.exact_states.v1) has an exact value, so a won endgame stays won: one playout through the game's CPU
// playout table, which reports perfect play's outcome there (the game's own solver, far faster than a search
// through the per-state rules), or, for a game without that table, a search to the end. It needs the game's
// gsdk.evaluation.v1 table and plays any two-player game without chance nodes; a pass is just a move.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "agents/agent_kinds.hpp"
#include "agents/iteration_clock.hpp"
#include "agents/move_ordering.hpp"
#include "agents/transposition_table.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "playouts/playout_calls.hpp"

namespace gsdk::core {

namespace {

// Exact results lie beyond every evaluation: a finished game is worth scale + 1 + |score| (capped) to its winner.
constexpr int64_t kScoreCap = int64_t{1} << 24;
constexpr int32_t kInfinity = 1 << 30;
constexpr int32_t kUnbounded = 1 << 20; // iterations without a depth bound stop on the clock or a solved root
constexpr uint64_t kNodesPerClockCheck = 256;

// Unwinds a search whose clock ran out; the agent then plays the last completed iteration's move, or a better one
// the unfinished iteration proved at the root.
struct SearchStopped {};

struct NodeResult {
  int32_t value = 0;
  uint32_t move = 0;
};

class AlphaBetaAgent final : public Agent {
public:
  AlphaBetaAgent(const GameInstance& game, const AgentSettings& settings)
      : game_(game), settings_(settings), evaluation_(*game.tables().evaluation),
        scale_(evaluation_.scale(game.handle())), table_(settings.tt_mb << 20), aspiration_(std::max(1, scale_ / 16)),
        histogram_(game.histogram_bins()) {
    if (scale_ < 1 || scale_ > (1 << 24))
      throw std::runtime_error(
          fmt::format("game '{}' declares an evaluation scale of {}; expected 1 .. 2^24", game.game().name, scale_));
  }

  void new_game(uint64_t) override {
    table_.clear();
    ordering_.clear();
  }

  uint32_t choose_move(const StateBlob& state) override {
    const auto start = std::chrono::steady_clock::now();
    const double budget = with_move_time(settings_, move_time_).seconds; // a GTP clock overrides the spec's time
    clock_.emplace(budget);
    nodes_ = 0;
    solved_ = 0;
    last_move_ = {};
    ordering_.new_search();
    const int32_t player = game_.current_player(state);
    const int32_t max_depth = settings_.depth > 0 ? static_cast<int32_t>(settings_.depth) : kUnbounded;
    std::optional<NodeResult> best;
    for (int32_t depth = 1; depth <= max_depth && (depth == 1 || clock_->worth_starting()); ++depth) {
      frontier_leaves_ = 0;
      iteration_best_.reset();
      try {
        root_first_ = best ? std::optional(best->move) : std::nullopt;
        best = search_with_aspiration(state, player, depth, best);
      } catch (const SearchStopped&) {
        // A root move proved at this depth is at least as good as every move the iteration searched before it,
        // the last iteration's move among them (root_first_).
        if (iteration_best_) best = iteration_best_;
        break;
      }
      last_move_.depth = static_cast<uint32_t>(depth);
      last_move_.value = best->value;
      if (frontier_leaves_ == 0) break; // nothing was cut short: deeper iterations find the same
    }
    // Stopped before any root move was searched: the evaluation's favourite.
    const uint32_t move = best ? best->move : first_ordered_move_;
    last_move_.nodes = nodes_;
    last_move_.playouts = solved_;
    last_move_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return move;
  }

  void observe_move(const StateBlob&, uint32_t) override {}

  std::string describe() const override {
    const std::string bound = settings_.depth > 0 ? fmt::format("depth={}", settings_.depth) : "";
    const std::string clock = settings_.seconds > 0 ? fmt::format("time={} s", settings_.seconds) : "";
    return fmt::format("alphabeta ({}{}{}, tt={} MiB)", bound, bound.empty() || clock.empty() ? "" : ", ", clock,
                       settings_.tt_mb);
  }

private:
  NodeResult search_with_aspiration(const StateBlob& root, int32_t player, int32_t depth,
                                    const std::optional<NodeResult>& previous) {
    if (previous && depth > 2) {
      const int32_t alpha = previous->value - aspiration_, beta = previous->value + aspiration_;
      const NodeResult narrow = search(root.data(), player, depth, alpha, beta, false, 0);
      if (narrow.value > alpha && narrow.value < beta) return narrow;
    }
    return search(root.data(), player, depth, -kInfinity, kInfinity, false, 0);
  }

  // The value of a finished game to `player`.
  int32_t terminal_value(const unsigned char* state, int32_t player) const {
    return value_of_score(game_.score(state), player);
  }

  // The value to `player` of a game that ends with `score` (the first player's view).
  int32_t value_of_score(int64_t score, int32_t player) const {
    const int64_t magnitude = score == 0 ? 0 : scale_ + 1 + std::min(score > 0 ? score : -score, kScoreCap);
    const int64_t for_first = score < 0 ? -magnitude : magnitude;
    return static_cast<int32_t>(player == 0 ? for_first : -for_first);
  }

  // The exact value to `player` of a state in the game's exact range, from the game's CPU playout table (its
  // playouts there report perfect play's outcome; the random stream is never drawn). Empty without that table.
  std::optional<int32_t> solved_value(const unsigned char* state, int32_t player) {
    const gsdk_cpu_playouts* playouts = game_.tables().cpu_playouts;
    if (!playouts) return std::nullopt;
    // A solve cannot be interrupted: one that may not end before the deadline is not begun.
    if (clock_->would_overrun(longest_solve_)) throw SearchStopped{};
    const auto began = std::chrono::steady_clock::now();
    gsdk_playout_summary summary = summary_over(histogram_);
    const gsdk_playout_request request = playout_request(0, 0, 1, state, playouts->best_simd_level());
    call_plugin(
        [&](char* error, uint32_t size) { return playouts->run(game_.handle(), &request, &summary, error, size); },
        [&] { return fmt::format("game '{}': solving an exact state", game_.game().name); });
    ++solved_;
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    longest_solve_ = std::max(longest_solve_, took);
    check_clock(); // a solve costs as much as thousands of nodes: the clock cannot wait for the next check
    return value_of_score(summary.best_score, player);
  }

  void tick() {
    ++nodes_;
    if (nodes_ % kNodesPerClockCheck == 0) check_clock();
  }

  void check_clock() const {
    if (std::chrono::steady_clock::now() >= clock_->deadline() || (settings_.stop && settings_.stop->requested()))
      throw SearchStopped{};
  }

  // The scratch of one ply: its children's states (contiguous, for one evaluate call), moves and values.
  struct Ply {
    std::vector<uint32_t> moves;
    std::vector<unsigned char> children;
    std::vector<int32_t> players, statics, order;
    std::vector<unsigned char> evaluated_states;
    std::vector<int32_t> evaluated, evaluated_index;
  };

  Ply& ply_scratch(size_t ply) {
    while (plies_.size() <= ply) plies_.push_back(std::make_unique<Ply>());
    return *plies_[ply];
  }

  // Fills the children of `state` and their static worth to `player`: exact for a finished game, else the
  // game's evaluation (one batched call).
  uint32_t expand(const unsigned char* state, int32_t player, Ply& p) {
    const uint32_t size = game_.state_size();
    p.moves.resize(game_.max_moves());
    const uint32_t n = game_.game().legal_moves(game_.handle(), state, p.moves.data(), nullptr);
    if (n == 0 || n > game_.max_moves())
      throw std::runtime_error(fmt::format("game '{}' listed {} moves in a state that is not over; expected 1 .. {}",
                                           game_.game().name, n, game_.max_moves()));
    p.children.resize(size_t{n} * size);
    p.players.resize(n);
    p.statics.resize(n);
    p.evaluated_states.clear();
    p.evaluated_index.clear();
    for (uint32_t k = 0; k < n; ++k) {
      unsigned char* child = p.children.data() + size_t{k} * size;
      std::memcpy(child, state, size);
      game_.apply_move(child, p.moves[k]);
      p.players[k] = game_.current_player(child);
      if (p.players[k] == GSDK_PLAYER_CHANCE)
        throw std::runtime_error(
            fmt::format("game '{}' reached a chance node; alphabeta plays games without chance", game_.game().name));
      if (p.players[k] == GSDK_PLAYER_TERMINAL) {
        p.statics[k] = terminal_value(child, player);
        continue;
      }
      p.evaluated_states.insert(p.evaluated_states.end(), child, child + size);
      p.evaluated_index.push_back(static_cast<int32_t>(k));
    }
    if (!p.evaluated_index.empty()) {
      p.evaluated.resize(p.evaluated_index.size());
      call_plugin(
          [&](char* error, uint32_t size) {
            return evaluation_.evaluate(game_.handle(), p.evaluated_states.data(),
                                        static_cast<uint32_t>(p.evaluated.size()), p.evaluated.data(), error, size);
          },
          [&] { return fmt::format("game '{}': evaluate", game_.game().name); });
      for (size_t j = 0; j < p.evaluated.size(); ++j) {
        const int32_t k = p.evaluated_index[j];
        p.statics[k] = p.players[k] == player ? p.evaluated[j] : -p.evaluated[j];
      }
    }
    return n;
  }

  // A root move proven better than the root's window (its value to the root's player is a lower bound at least).
  void note_root_move(int32_t value, uint32_t move) {
    if (!iteration_best_ || value > iteration_best_->value) iteration_best_ = NodeResult{value, move};
  }

  // Negamax, fail-soft: the value of `state` (not finished; `player` to move) to `player`, searched `depth` plies
  // deep (to the end once `solving`), and its best move.
  NodeResult search(const unsigned char* state, int32_t player, int32_t depth, int32_t alpha, int32_t beta,
                    bool solving, size_t ply) {
    tick();
    const bool exact = game_.is_exact(state);
    solving = solving || exact;
    const int32_t wanted_depth = solving ? TranspositionTable::kSolvedDepth : depth;
    const uint64_t key = evaluation_.hash(game_.handle(), state);
    const std::optional<TableEntry> entry = table_.find(key);
    const int32_t original_alpha = alpha;
    // Only an entry of this very depth answers: a depth-bounded search then has the value of the position alone,
    // whatever was searched before (reproducible, and the same with the table off).
    // The root always searches, so that the move it returns is one the game listed.
    if (entry && entry->depth == wanted_depth && ply > 0) {
      // An answer from a depth-bounded entry stands for the frontier it saw: a deeper iteration can change it.
      if (!solving) ++frontier_leaves_;
      if (entry->bound == ValueBound::exact) return {entry->value, entry->move};
      if (entry->bound == ValueBound::lower) alpha = std::max(alpha, entry->value);
      if (entry->bound == ValueBound::upper) beta = std::min(beta, entry->value);
      if (alpha >= beta) return {entry->value, entry->move};
    }
    // The root always searches its moves, so that it returns one; below it an exact state is solved at once.
    if (exact && ply > 0) {
      if (const std::optional<int32_t> solved = solved_value(state, player)) {
        table_.store({key, *solved, 0, wanted_depth, ValueBound::exact});
        return {*solved, 0};
      }
    }
    Ply& p = ply_scratch(ply);
    const uint32_t n = expand(state, player, p);
    ordering_.order(std::span(p.moves.data(), n), std::span(p.statics.data(), n),
                    ply == 0 && root_first_ ? root_first_
                    : entry                 ? std::optional(entry->move)
                                            : std::nullopt,
                    player, p.order);
    if (ply == 0) first_ordered_move_ = p.moves[p.order[0]];

    NodeResult best{-kInfinity, p.moves[p.order[0]]};
    const uint32_t size = game_.state_size();
    for (uint32_t i = 0; i < n && alpha < beta; ++i) {
      const int32_t k = p.order[i];
      int32_t value = p.statics[k];
      if (p.players[k] != GSDK_PLAYER_TERMINAL) {
        if (!solving && depth <= 1) {
          ++frontier_leaves_;
        } else {
          const unsigned char* child = p.children.data() + size_t(k) * size;
          const int32_t mover = p.players[k];
          // The value of the child to `player` within (a, b).
          const auto probe = [&](int32_t a, int32_t b) {
            return mover == player ? search(child, player, depth - 1, a, b, solving, ply + 1).value
                                   : -search(child, mover, depth - 1, -b, -a, solving, ply + 1).value;
          };
          // Principal variation search: the first move is expected to be the best; each later one only has to be
          // shown no better (a null window, cheap), and is searched fully only when it is.
          if (i == 0 || beta - alpha <= 1) {
            value = probe(alpha, beta);
          } else {
            value = probe(alpha, alpha + 1);
            if (value > alpha && value < beta) {
              if (ply == 0) note_root_move(value, p.moves[k]);
              value = probe(alpha, beta);
            }
          }
        }
      }
      if (value > best.value) best = {value, p.moves[k]};
      if (ply == 0 && value > original_alpha) note_root_move(value, p.moves[k]);
      if (value >= beta) ordering_.record_cutoff(p.moves[k], player, depth);
      alpha = std::max(alpha, value);
    }
    const ValueBound bound = best.value <= original_alpha ? ValueBound::upper
                             : best.value >= beta         ? ValueBound::lower
                                                          : ValueBound::exact;
    table_.store({key, best.value, best.move, wanted_depth, bound});
    return best;
  }

  const GameInstance& game_;
  const AgentSettings settings_;
  const gsdk_evaluation& evaluation_;
  const int32_t scale_;
  TranspositionTable table_;
  const int32_t aspiration_;
  std::vector<std::unique_ptr<Ply>> plies_;
  MoveOrdering ordering_;
  std::vector<uint64_t> histogram_; // the playout table's score histogram, for solved_value
  uint64_t solved_ = 0;             // exact states solved by one playout in this move's search
  double longest_solve_ = 0;        // seconds of the slowest solve so far: what the next one may cost
  std::optional<IterationClock> clock_;
  uint64_t nodes_ = 0;
  uint64_t frontier_leaves_ = 0;
  uint32_t first_ordered_move_ = 0;
  std::optional<NodeResult> iteration_best_; // the current iteration's best root move so far (note_root_move)
  // The last completed iteration's move, searched first at the root (whatever the table's root entry says after a
  // failed aspiration window), so that a root move noted later is one proven better than it.
  std::optional<uint32_t> root_first_;
};

} // namespace

std::unique_ptr<Agent> make_alphabeta_agent(const GameInstance& game, const AgentSettings& settings) {
  if (!game.tables().evaluation)
    throw std::invalid_argument(fmt::format("game '{}' has no evaluation table ({}): alphabeta needs one",
                                            game.game().name, GSDK_TABLE_EVALUATION));
  if (game.game().flags & GSDK_GAME_FLAG_CHANCE)
    throw std::invalid_argument(
        fmt::format("game '{}' has chance nodes: alphabeta plays games without chance", game.game().name));
  if (settings.depth == 0 && settings.seconds <= 0)
    throw std::invalid_argument("alphabeta needs a bound: depth=N, time=S or both");
  return std::make_unique<AlphaBetaAgent>(game, settings);
}

} // namespace gsdk::core
