// mcts.cpp - the UCT tree: selection (with virtual loss), expansion, batched leaf evaluation, backup and
// subtree reuse.
#include "gsdk/core/agents/mcts.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::core {

namespace {
// The stream chance outcomes are drawn from; playouts use streams 0, 1, 2, ... of the same seed.
constexpr uint64_t kChanceStream = ~uint64_t{0};
} // namespace

SearchTree::SearchTree(const GameInstance& game, std::unique_ptr<LeafEvaluator> evaluator, const TreeSettings& settings)
    : game_(game), evaluator_(std::move(evaluator)), settings_(settings), state_size_(game.state_size()),
      moves_(game.max_moves()), probabilities_(game.max_moves()), scratch_(game.state_size()),
      solves_apart_(evaluator_->solve_apart()) {
  settings_.leaf = std::max(1u, settings_.leaf);
  settings_.batch = std::max(1u, settings_.batch);
  settings_.in_flight = std::clamp(settings_.in_flight, 1u, evaluator_->overlap());
  settings_.max_nodes = std::clamp<uint64_t>(settings_.max_nodes, 1, kNone);
  reserve_room(nodes_, states_);
}

void SearchTree::reserve_room(std::vector<Node>& nodes, std::vector<unsigned char>& states) const {
  const uint64_t room = std::min(settings_.max_nodes, kReservedNodes);
  nodes.reserve(room);
  states.reserve(room * state_size_);
}

void SearchTree::clear() {
  settle();
  nodes_.clear();
  states_.clear();
}

void SearchTree::reset(uint64_t seed) {
  clear();
  evaluator_->reseed(seed);
  chance_ = rng::PhiloxStream(seed, kChanceStream);
}

uint32_t SearchTree::add_node(uint32_t parent, uint32_t move, double probability) {
  Node n;
  n.parent = parent;
  n.move = move;
  n.probability = probability;
  const unsigned char* s = states_.data() + nodes_.size() * uint64_t{state_size_};
  n.player = static_cast<int16_t>(game_.current_player(s));
  // The root is never an exact node: a search must expand it to choose a move.
  if (parent != kNone && n.player >= 0 && game_.is_exact(s)) n.exact = Exact::unsolved;
  if (n.player == GSDK_PLAYER_TERMINAL) { // solved at once
    const int64_t score = game_.score(s);
    n.exact = score > 0 ? Exact::win : score == 0 ? Exact::draw : Exact::loss;
  }
  nodes_.push_back(n);
  return static_cast<uint32_t>(nodes_.size() - 1);
}

void SearchTree::set_root(const StateBlob& s) {
  settle();
  const int32_t player = game_.current_player(s);
  // Draw points counted for the other player would mislead this one's search.
  const bool same_view = settings_.draw_value == 0.5 || player == root_player_;
  if (!nodes_.empty() && same_view && std::memcmp(state(0), s.data(), state_size_) == 0) return;
  clear();
  root_player_ = player;
  states_.insert(states_.end(), s.begin(), s.end());
  add_node(kNone, 0, 1);
}

double SearchTree::points_of(const WinDrawLoss& result) const {
  const double draw0 = root_player_ == 1 ? 1 - settings_.draw_value : settings_.draw_value;
  return static_cast<double>(result.wins) + draw0 * static_cast<double>(result.draws) + result.valued_points;
}

bool SearchTree::advance(const StateBlob& before, uint32_t move) {
  settle();
  if (nodes_.empty() || before.size() != state_size_ || std::memcmp(state(0), before.data(), state_size_) != 0) {
    clear();
    return false;
  }
  uint32_t kept = kNone;
  for (uint32_t k = 0; k < nodes_[0].child_count; ++k)
    if (nodes_[nodes_[0].first_child + k].move == move) kept = nodes_[0].first_child + k;
  // The kept subtree is copied into the spare arrays, which then swap with the tree's: the memory of
  // earlier moves is reused, with no fresh pages to fault in and no regrowth while searching.
  std::vector<Node>& nodes = spare_nodes_;
  std::vector<unsigned char>& states = spare_states_;
  nodes.clear();
  states.clear();
  reserve_room(nodes, states);
  if (kept != kNone) {
    // Breadth first, a child block at a time, so children stay contiguous under their new indices.
    std::vector<uint32_t> old_index{kept};
    nodes.push_back(nodes_[kept]);
    nodes[0].parent = kNone;
    if (nodes[0].player != GSDK_PLAYER_TERMINAL)
      nodes[0].exact = Exact::no; // a root is searched, whatever was known of it
    for (size_t i = 0; i < nodes.size(); ++i) {
      const uint32_t first = nodes[i].first_child, count = nodes[i].child_count;
      if (count == 0) continue;
      nodes[i].first_child = static_cast<uint32_t>(nodes.size());
      for (uint32_t k = 0; k < count; ++k) {
        nodes.push_back(nodes_[first + k]);
        nodes.back().parent = static_cast<uint32_t>(i);
        old_index.push_back(first + k);
      }
    }
    states.resize(nodes.size() * uint64_t{state_size_});
    for (size_t i = 0; i < nodes.size(); ++i)
      std::memcpy(states.data() + i * state_size_, state(old_index[i]), state_size_);
  }
  nodes_.swap(nodes);
  states_.swap(states);
  return kept != kNone;
}

bool SearchTree::expand(uint32_t node) {
  const bool chance = nodes_[node].player == GSDK_PLAYER_CHANCE;
  scratch_.assign(state(node), state(node) + state_size_); // states_ may move as it grows
  const uint32_t n = game_.legal_moves(scratch_, moves_.data(), chance ? probabilities_.data() : nullptr);
  game_.require_moves_in_live_state(scratch_, n);
  if (nodes_.size() + n > settings_.max_nodes) return false;
  const auto first = static_cast<uint32_t>(nodes_.size());
  states_.resize(states_.size() + uint64_t{n} * state_size_);
  bool finished_child = false;
  for (uint32_t k = 0; k < n; ++k) {
    unsigned char* child = states_.data() + (uint64_t{first} + k) * state_size_;
    std::memcpy(child, scratch_.data(), state_size_);
    game_.apply_move(child, moves_[k]);
    const uint32_t added = add_node(node, moves_[k], chance ? probabilities_[k] : 1.0);
    finished_child = finished_child || nodes_[added].player == GSDK_PLAYER_TERMINAL;
  }
  nodes_[node].first_child = first;
  nodes_[node].child_count = n;
  // Only a finished game among the new children can decide the node now (the others are not yet solved);
  // the scan is skipped otherwise, since expansion is on the host's hot path.
  if (finished_child) prove_from(node);
  return true;
}

uint32_t SearchTree::select_child(uint32_t node) {
  const Node& parent = nodes_[node];
  if (parent.player == GSDK_PLAYER_CHANCE) {
    double u = chance_.uniform();
    for (uint32_t k = 0; k + 1 < parent.child_count; ++k) {
      if (u < nodes_[parent.first_child + k].probability) return parent.first_child + k;
      u -= nodes_[parent.first_child + k].probability;
    }
    return parent.first_child + parent.child_count - 1;
  }
  // Every child is tried once before UCB1 compares them (lowest index first, so it is reproducible).
  // A pending playout counts as a visit the mover lost.
  const uint64_t leaf = settings_.leaf;
  const uint64_t parent_visits = parent.visits + uint64_t{parent.pending} * leaf;
  // c sqrt(ln N / n) as c sqrt(ln N) sqrt(1 / n): one division per child (this loop is most of the
  // host's time when a GPU plays the playouts).
  const double explore =
      settings_.exploration * std::sqrt(std::log(static_cast<double>(std::max<uint64_t>(parent_visits, 1))));
  uint32_t best = parent.first_child;
  double best_value = -1;
  for (uint32_t c = parent.first_child; c < parent.first_child + parent.child_count; ++c) {
    const Node& child = nodes_[c];
    const uint64_t pending = uint64_t{child.pending} * leaf;
    const uint64_t visits = child.visits + pending;
    if (visits == 0) return c;
    const double points0 = child.points + (parent.player == 0 ? 0.0 : static_cast<double>(pending));
    const double per_visit = 1 / static_cast<double>(visits);
    const double mean0 = points0 * per_visit;
    const double mean = parent.player == 0 ? mean0 : 1 - mean0;
    const double value = mean + explore * std::sqrt(per_visit);
    if (value > best_value) {
      best_value = value;
      best = c;
    }
  }
  return best;
}

void SearchTree::mark_pending(uint32_t node, uint32_t selections) {
  for (uint32_t n = node; n != kNone; n = nodes_[n].parent) nodes_[n].pending += selections;
}

uint32_t SearchTree::select_leaves(std::vector<uint32_t>& leaves) {
  uint32_t node = 0;
  while (nodes_[node].child_count > 0 && (node == 0 || nodes_[node].exact == Exact::no)) node = select_child(node);
  // A leaf is expanded on its second visit (the root at once): one evaluation first tells whether it
  // is worth the memory. A leaf already selected in this iteration counts as visited. Exact nodes are
  // never expanded.
  const Node& leaf = nodes_[node];
  if (leaf.exact == Exact::no && (leaf.visits > 0 || leaf.pending > 0 || node == 0) && expand(node)) {
    // Chance outcomes are sampled by probability, so their children are not evaluated as a set.
    if (settings_.evaluate_children && nodes_[node].player != GSDK_PLAYER_CHANCE) {
      const uint32_t first = nodes_[node].first_child, count = nodes_[node].child_count;
      for (uint32_t c = first; c < first + count; ++c) {
        nodes_[c].pending = 1;
        leaves.push_back(c);
      }
      mark_pending(node, count); // one walk up for all the children
      return count;
    }
    node = select_child(node);
  }
  mark_pending(node, 1);
  const Node& chosen = nodes_[node];
  if (chosen.exact == Exact::unsolved) {
    // Its value is on its way (playouts or a solve): the selection is a virtual loss until it lands.
    if (chosen.pending > 1) return 1;
    // Solved apart: a provisional value from playouts first, the solve once it is selected again.
    if (solves_apart_ && chosen.visits > 0) {
      solve_queue_.push_back(node);
      return 1;
    }
  }
  leaves.push_back(node);
  return 1;
}

SearchTree::Flight SearchTree::launch(std::vector<uint32_t> leaves) {
  Flight flight{std::move(leaves), {}, {}};
  flight.results.resize(flight.leaves.size());
  packed_.clear();
  for (size_t i = 0; i < flight.leaves.size(); ++i) {
    const uint32_t leaf = flight.leaves[i];
    if (nodes_[leaf].exact > Exact::unsolved) { // finished games among them
      flight.results[i] = exact_result(nodes_[leaf], settings_.leaf);
      continue;
    }
    packed_.insert(packed_.end(), state(leaf), state(leaf) + state_size_);
    flight.unfinished.push_back(static_cast<uint32_t>(i));
  }
  if (!flight.unfinished.empty())
    evaluator_->start_batch(packed_, static_cast<uint32_t>(flight.unfinished.size()), settings_.leaf);
  return flight;
}

void SearchTree::land_oldest() {
  Flight flight = std::move(flights_.front());
  flights_.pop_front();
  if (!flight.unfinished.empty()) {
    const std::vector<WinDrawLoss> played = evaluator_->finish_batch();
    for (size_t k = 0; k < flight.unfinished.size(); ++k) flight.results[flight.unfinished[k]] = played[k];
  }
  // Siblings (a node's evaluated children lie side by side in the flight) share their path to the
  // root: each sibling takes its own result, and the path takes their sum in one walk. The root as a
  // leaf (a tree of one node, or a full tree evaluating it again) has no path above it.
  for (size_t i = 0; i < flight.leaves.size();) {
    const uint32_t parent = nodes_[flight.leaves[i]].parent;
    WinDrawLoss sum;
    uint32_t siblings = 0;
    for (; i < flight.leaves.size() && nodes_[flight.leaves[i]].parent == parent; ++i, ++siblings) {
      back_up_node(flight.leaves[i], flight.results[i], 1);
      sum.add(flight.results[i]);
    }
    if (parent != kNone) back_up_path(parent, sum, siblings);
  }
  // Exact nodes evaluated among the playouts got their exact value, unless the evaluator solves apart:
  // then it was a provisional one, and a node selected again meanwhile is due for its solve.
  for (size_t i = 0; i < flight.leaves.size(); ++i) {
    const uint32_t leaf = flight.leaves[i];
    if (nodes_[leaf].exact != Exact::unsolved) continue;
    if (!solves_apart_)
      record_exact(leaf, flight.results[i]);
    else if (nodes_[leaf].pending > 0)
      solve_queue_.push_back(leaf);
  }
}

WinDrawLoss SearchTree::exact_result(const Node& node, uint64_t playouts) const {
  const int64_t score = node.exact == Exact::win ? 1 : node.exact == Exact::draw ? 0 : -1;
  return outcome_of_score(score, playouts);
}

void SearchTree::restate(uint32_t node) {
  const Node& n = nodes_[node];
  const double correction = points_of(exact_result(n, n.visits)) - n.points;
  nodes_[node].points += correction;
  for (uint32_t a = n.parent; a != kNone && nodes_[a].exact == Exact::no; a = nodes_[a].parent)
    nodes_[a].points += correction;
}

SearchTree::Exact SearchTree::proven_value(const Node& node) const {
  const Exact win = node.player == 0 ? Exact::win : Exact::loss, loss = node.player == 0 ? Exact::loss : Exact::win;
  bool lost = true;
  for (uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) {
    const Exact value = nodes_[c].exact;
    if (value == win) return win;
    lost = lost && value == loss;
  }
  return lost ? loss : Exact::no;
}

void SearchTree::prove_from(uint32_t node) {
  for (uint32_t p = node; p != kNone && p != 0; p = nodes_[p].parent) {
    Node& n = nodes_[p];
    if (n.exact != Exact::no || n.player < 0 || n.child_count == 0) return;
    const Exact value = proven_value(n);
    if (value == Exact::no) return;
    n.exact = value;
  }
}

void SearchTree::record_exact(uint32_t node, const WinDrawLoss& result) {
  Node& n = nodes_[node];
  const uint64_t playouts = result.playouts();
  if (result.wins == playouts)
    n.exact = Exact::win;
  else if (result.draws == playouts)
    n.exact = Exact::draw;
  else if (result.losses == playouts)
    n.exact = Exact::loss;
  else
    throw std::runtime_error(
        fmt::format("game '{}' reports a state as exact, but its {} playouts disagree ({} wins, {} "
                    "draws, {} losses for player 0)",
                    game_.game().name, playouts, result.wins, result.draws, result.losses));
  // Playouts already counted on the node (a provisional value) are restated as exact ones, on it and above.
  restate(node);
  const uint32_t selections = n.pending;
  if (selections > 0) back_up_path(node, exact_result(n, uint64_t{selections} * settings_.leaf), selections);
  prove_from(n.parent);
}

void SearchTree::tend_solves() {
  if (!solving_.empty() && evaluator_->solves_ready()) land_solves();
  if (solving_.empty() && !solve_queue_.empty()) start_solves();
}

void SearchTree::start_solves() {
  const size_t count = std::min<size_t>(solve_queue_.size(), evaluator_->max_solves());
  solving_.assign(solve_queue_.begin(), solve_queue_.begin() + static_cast<std::ptrdiff_t>(count));
  solve_queue_.erase(solve_queue_.begin(), solve_queue_.begin() + static_cast<std::ptrdiff_t>(count));
  packed_.clear();
  for (const uint32_t node : solving_) packed_.insert(packed_.end(), state(node), state(node) + state_size_);
  evaluator_->start_solves(packed_, static_cast<uint32_t>(count), settings_.leaf);
}

void SearchTree::land_solves() {
  const std::vector<WinDrawLoss> solved = evaluator_->finish_solves();
  for (size_t k = 0; k < solving_.size(); ++k) record_exact(solving_[k], solved[k]);
  solving_.clear();
}

void SearchTree::settle() {
  while (!flights_.empty()) land_oldest();
  while (!solving_.empty() || !solve_queue_.empty()) {
    if (!solving_.empty()) land_solves();
    if (!solve_queue_.empty()) start_solves();
  }
}

void SearchTree::back_up_node(uint32_t node, const WinDrawLoss& result, uint32_t selections) {
  Node& n = nodes_[node];
  n.pending -= selections;
  n.visits += result.playouts();
  n.points += points_of(result);
}

void SearchTree::back_up_path(uint32_t node, const WinDrawLoss& result, uint32_t selections) {
  WinDrawLoss r = result;
  for (uint32_t n = node; n != kNone; n = nodes_[n].parent) {
    // A result that lands at or below a solved node (played before it was proven) is worth its outcome.
    if (nodes_[n].exact > Exact::unsolved) r = exact_result(nodes_[n], r.playouts());
    back_up_node(n, r, selections);
  }
}

uint64_t SearchTree::iterate(uint64_t allowance) {
  if (nodes_.empty()) throw std::logic_error("SearchTree::iterate without a root");
  const uint64_t affordable = std::max<uint64_t>(1, allowance / settings_.leaf);
  std::vector<uint32_t> leaves;
  leaves.reserve(settings_.batch);
  // Selections stop at `batch` or once their evaluations cover the allowance; with evaluate_children the
  // last selection may overshoot it by one node's children.
  uint64_t evaluated = 0;
  for (uint32_t k = 0; k < settings_.batch && evaluated < affordable; ++k) evaluated += select_leaves(leaves);
  flights_.push_back(launch(std::move(leaves)));
  while (flights_.size() >= settings_.in_flight) land_oldest();
  if (solves_apart_) tend_solves();
  return evaluated * settings_.leaf;
}

std::vector<RootChild> SearchTree::root_children() const {
  std::vector<RootChild> out;
  if (nodes_.empty()) return out;
  for (uint32_t k = 0; k < nodes_[0].child_count; ++k) {
    const Node& c = nodes_[nodes_[0].first_child + k];
    out.push_back({c.move, c.visits, c.points});
  }
  return out;
}

} // namespace gsdk::core
