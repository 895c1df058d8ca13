// root_expansion.cpp - cutting a perft root into subtrees, every path or distinct states (root_expansion.hpp).
#include "perft/root_expansion.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "perft/canonical_state.hpp"

namespace gsdk::core {

namespace {

// The host expansion never holds more than this many bytes of subtree states.
constexpr uint64_t kMaxExpansionBytes = uint64_t{1} << 30;
// Nor more paths than this (a game whose paths meet all the time, such as nim, has a few states reached by
// astronomically many paths): path counts stay 64-bit.
constexpr uint64_t kMaxPaths = uint64_t{1} << 62;

// One level of the expansion as it is built: states and their weights, equal states merged when distinct.
class LevelBuilder {
public:
  LevelBuilder(uint32_t state_size, bool distinct) : state_size_(state_size), distinct_(distinct) {}

  size_t size() const { return states_.size(); }

  // A state reached with `weights` (a parent's, or one root move's).
  void add(const StateBlob& state, const SubtreeWeight* weights, size_t count) {
    size_t id = states_.size();
    if (distinct_) {
      const auto [at, added] = ids_.emplace(std::string(state.begin(), state.end()), id);
      id = at->second;
      if (added) states_.push_back(state);
    } else {
      states_.push_back(state);
    }
    if (id == weights_.size()) weights_.emplace_back();
    weights_[id].insert(weights_[id].end(), weights, weights + count);
  }

  // The level, each state's weights merged per root move in root-move order.
  // The level, each state's weights merged per root move in root-move order. Its paths are counted in 128 bits
  // and saturate there: the caller keeps a level only while they fit kMaxPaths.
  RootExpansion finish(uint32_t depth) {
    RootExpansion level;
    level.depth = depth;
    level.states = std::move(states_);
    level.first.push_back(0);
    uint128 paths = 0;
    for (std::vector<SubtreeWeight>& w : weights_) {
      std::stable_sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.root_move < b.root_move; });
      for (const SubtreeWeight& x : w) {
        paths += x.paths;
        if (level.weights.size() > level.first.back() && level.weights.back().root_move == x.root_move)
          level.weights.back().paths += x.paths;
        else
          level.weights.push_back(x);
      }
      level.first.push_back(level.weights.size());
    }
    level.paths = paths > kMaxPaths ? ~uint64_t{0} : static_cast<uint64_t>(paths);
    return level;
  }

private:
  uint32_t state_size_;
  bool distinct_;
  std::vector<StateBlob> states_;
  std::vector<std::vector<SubtreeWeight>> weights_; // per state
  std::unordered_map<std::string, size_t> ids_;     // canonical bytes -> state, when distinct
};

} // namespace

uint64_t RootExpansion::paths_to(size_t i) const {
  uint64_t n = 0;
  for (uint64_t k = first[i]; k < first[i + 1]; ++k) n += weights[k].paths;
  return n;
}

RootExpansion expand_root(const GameInstance& game, const StateBlob& root, const std::vector<uint32_t>& root_moves,
                          uint32_t depth, uint64_t target, bool distinct) {
  LevelBuilder first_level(game.state_size(), distinct);
  for (uint32_t k = 0; k < root_moves.size(); ++k) {
    StateBlob child = root;
    game.apply_move(child, root_moves[k]);
    if (distinct) make_canonical(game, child);
    const SubtreeWeight weight{k, 1};
    first_level.add(child, &weight, 1);
  }
  RootExpansion level = first_level.finish(depth - 1);
  const uint64_t max_subtrees = kMaxExpansionBytes / (game.state_size() + sizeof(StateBlob) + sizeof(SubtreeWeight));
  std::vector<uint32_t> moves(game.max_moves());
  StateBlob child(game.state_size());
  while (level.size() < target && level.depth >= 2 && level.size() > 0) {
    LevelBuilder next(game.state_size(), distinct);
    for (size_t i = 0; i < level.size(); ++i) {
      const StateBlob& s = level.states[i];
      const uint32_t n = game.checked_legal_moves(s, moves);
      if (next.size() + n > max_subtrees) return level;
      for (uint32_t k = 0; k < n; ++k) {
        std::copy(s.begin(), s.end(), child.begin());
        game.apply_move(child, moves[k]);
        if (distinct) make_canonical(game, child);
        next.add(child, level.weights.data() + level.first[i], level.first[i + 1] - level.first[i]);
      }
    }
    RootExpansion deeper = next.finish(level.depth - 1);
    if (deeper.paths > kMaxPaths) return level; // its weights may have wrapped: dropped whole
    level = std::move(deeper);
  }
  return level;
}

} // namespace gsdk::core
