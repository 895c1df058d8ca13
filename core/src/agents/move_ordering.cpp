// move_ordering.cpp - alpha-beta's move order (see move_ordering.hpp).
#include "agents/move_ordering.hpp"

#include <algorithm>
#include <numeric>

namespace gsdk::core {

MoveOrdering::MoveOrdering() : history_(2 * kHistorySlots, 0) {}

void MoveOrdering::clear() { std::fill(history_.begin(), history_.end(), 0u); }

void MoveOrdering::new_search() {
  for (uint32_t& h : history_) h /= 2;
}

void MoveOrdering::order(std::span<const uint32_t> moves, std::span<const int32_t> statics,
                         std::optional<uint32_t> table_move, int32_t player, std::vector<int32_t>& order) const {
  order.resize(moves.size());
  std::iota(order.begin(), order.end(), 0);
  // The index settles the last ties, so the order (and a depth-bounded search) is the same on every run.
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    const bool a_remembered = moves[a] == table_move, b_remembered = moves[b] == table_move;
    if (a_remembered != b_remembered) return a_remembered;
    if (statics[a] != statics[b]) return statics[a] > statics[b];
    const uint32_t ha = history_[slot(player, moves[a])], hb = history_[slot(player, moves[b])];
    if (ha != hb) return ha > hb;
    return a < b;
  });
}

void MoveOrdering::record_cutoff(uint32_t move, int32_t player, int32_t depth) {
  const uint32_t weight = static_cast<uint32_t>(std::clamp(depth, 1, 64));
  uint32_t& h = history_[slot(player, move)];
  h = std::min<uint32_t>(h + weight * weight, UINT32_MAX / 2);
}

} // namespace gsdk::core
