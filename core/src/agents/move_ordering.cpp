// move_ordering.cpp - alpha-beta's move order (see move_ordering.hpp).
#include "agents/move_ordering.hpp"

#include <algorithm>
#include <numeric>

namespace gsdk::core {

MoveOrdering::MoveOrdering() : history_(2 * kHistorySlots, 0) {}

void MoveOrdering::clear() {
  killers_.clear();
  std::fill(history_.begin(), history_.end(), 0u);
}

void MoveOrdering::new_search() {
  killers_.clear();
  for (uint32_t& h : history_) h /= 2;
}

void MoveOrdering::order(std::span<const uint32_t> moves, std::span<const int32_t> statics,
                         std::optional<uint32_t> table_move, int32_t player, size_t ply, std::vector<int32_t>& order) {
  const size_t n = moves.size();
  if (killers_.size() <= ply) killers_.resize(ply + 1);
  const Killers& killers = killers_[ply];
  rank_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const auto killer = std::find(killers.begin(), killers.end(), moves[k]);
    rank_[k] = moves[k] == table_move ? 0 : killer != killers.end() ? 1 + static_cast<int32_t>(killer - killers.begin())
                                                                    : 1 + static_cast<int32_t>(kKillersPerPly);
  }
  order.resize(n);
  std::iota(order.begin(), order.end(), 0);
  // The index settles the last ties, so the order (and a depth-bounded search) is the same on every run.
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    if (rank_[a] != rank_[b]) return rank_[a] < rank_[b];
    if (statics[a] != statics[b]) return statics[a] > statics[b];
    const uint32_t ha = history(player, moves[a]), hb = history(player, moves[b]);
    if (ha != hb) return ha > hb;
    return a < b;
  });
}

void MoveOrdering::record_cutoff(uint32_t move, int32_t player, size_t ply, int32_t depth) {
  const uint32_t weight = static_cast<uint32_t>(std::clamp(depth, 1, 64));
  uint32_t& h = history(player, move);
  h = std::min<uint32_t>(h + weight * weight, UINT32_MAX / 2);
  if (killers_.size() <= ply) killers_.resize(ply + 1);
  Killers& killers = killers_[ply];
  if (killers[0] == move) return;
  killers[1] = killers[0];
  killers[0] = move;
}

} // namespace gsdk::core
