// hashed_counter.cpp - a CPU worker's hashed count of one perft subtree (hashed_counter.hpp).
#include "perft/hashed_counter.hpp"

#include <algorithm>
#include <limits>
#include "perft/canonical_state.hpp"
#include "perft/state_key.hpp"
#include "perft/whole_count.hpp"

namespace gsdk::core {

HashedCounter::HashedCounter(const GameInstance& game, bool plugin_table, HostTable& table, uint32_t hashed_depth,
                             const StopRequest* stop)
    : game_(game), plugin_table_(plugin_table), table_(table), hashed_depth_(std::max(hashed_depth, 2u)),
      stop_(stop) {}

std::optional<uint128> HashedCounter::count(const StateBlob& state, uint32_t depth) {
  return count_at(state, depth, 0);
}

std::optional<uint128> HashedCounter::count_at(const StateBlob& state, uint32_t depth, size_t ply) {
  if (depth < hashed_depth_) return gsdk::core::count_whole(game_, plugin_table_, state, depth);
  if (stop_requested(stop_)) return std::nullopt;
  const perft_key::Key key = perft_key::state_key(state.data(), game_.state_size(), depth);
  const std::optional<uint64_t> known = table_.probe(key, counters_);
  if (depth == hashed_depth_) judge_floor(known.value_or(0));
  if (known) return *known;
  if (depth == hashed_depth_) return store(key, gsdk::core::count_whole(game_, plugin_table_, state, depth));
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
    make_canonical(game_, child);
    const std::optional<uint128> below = count_at(child, depth - 1, ply + 1);
    if (!below) return std::nullopt;
    leaves += *below;
  }
  return store(key, leaves);
}

void HashedCounter::judge_floor(uint64_t saved) {
  ++floor_probes_;
  floor_saved_ += saved;
  if (floor_probes_ < kJudgedProbes) return;
  if (floor_saved_ < uint128{kLeavesPerLookUp} * floor_probes_) ++hashed_depth_;
  floor_probes_ = 0;
  floor_saved_ = 0;
}

uint128 HashedCounter::store(const perft_key::Key& key, uint128 leaves) {
  if (leaves <= std::numeric_limits<uint64_t>::max()) table_.store(key, static_cast<uint64_t>(leaves), counters_);
  return leaves;
}

} // namespace gsdk::core
