// subtree_counter.cpp - counting one CPU perft subtree in calls short enough to honour a stop request
// (subtree_counter.hpp).
#include "perft/subtree_counter.hpp"
#include "perft/whole_count.hpp"

#include <algorithm>
#include <chrono>

namespace gsdk::core {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

SubtreeCounter::SubtreeCounter(const GameInstance& game, bool plugin_table, const StopRequest* stop,
                               double call_seconds)
    : game_(game), plugin_table_(plugin_table), stop_(stop), call_seconds_(call_seconds) {}

std::optional<uint128> SubtreeCounter::count(const StateBlob& state, uint32_t depth) {
  // Without a stop request there is nothing to wait for: one call.
  if (!stop_) return count_whole(state, depth);
  if (longest_seconds_.size() <= depth) longest_seconds_.resize(depth + 1, -1.0);
  return count_at(state, depth, 0);
}

std::optional<uint128> SubtreeCounter::count_at(const StateBlob& state, uint32_t depth, size_t ply) {
  if (stop_requested(stop_)) return std::nullopt;
  const auto began = Clock::now();
  const auto record = [&] {
    double& longest = longest_seconds_[depth];
    longest = std::max(longest, std::chrono::duration<double>(Clock::now() - began).count());
  };
  const double longest = longest_seconds_[depth];
  if (depth <= 1 || (longest >= 0 && longest < call_seconds_)) {
    const uint128 leaves = count_whole(state, depth);
    record();
    return leaves;
  }
  if (ply == moves_.size()) {
    moves_.emplace_back(game_.max_moves());
    children_.emplace_back(game_.state_size());
  }
  std::vector<uint32_t>& moves = moves_[ply];
  StateBlob& child = children_[ply];
  const uint32_t n = game_.checked_legal_moves(state, moves);
  uint128 leaves = 0;
  for (uint32_t k = 0; k < n; ++k) {
    std::copy(state.begin(), state.end(), child.begin());
    game_.apply_move(child, moves[k]);
    const std::optional<uint128> below = count_at(child, depth - 1, ply + 1);
    if (!below) return std::nullopt;
    leaves += *below;
  }
  record();
  return leaves;
}

uint128 SubtreeCounter::count_whole(const StateBlob& state, uint32_t depth) const {
  return gsdk::core::count_whole(game_, plugin_table_, state, depth);
}

} // namespace gsdk::core
