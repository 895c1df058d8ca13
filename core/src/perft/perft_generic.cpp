// perft_generic.cpp - perft through the per-state table alone (the reference every faster path is
// checked against), and the decimal text of 128-bit counts.
#include <algorithm>
#include <deque>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/perft/perft.hpp"

namespace gsdk::core {

namespace {

// Depth-first recursion with one move buffer and one child state per ply, made once and reused, so
// the only per-node costs are the plugin's calls.
class GenericPerft {
public:
  explicit GenericPerft(const GameInstance& game) : game_(game) {}

  uint128 count(const StateBlob& state, uint32_t depth, size_t ply = 0) {
    if (depth == 0) return 1;
    if (ply == moves_.size()) {
      moves_.emplace_back(game_.max_moves());
      children_.emplace_back(game_.state_size());
    }
    std::vector<uint32_t>& moves = moves_[ply];
    const uint32_t n = game_.checked_legal_moves(state, moves);
    // Bulk counting: the children's own move lists are never needed at the last ply.
    if (depth == 1) return n;
    uint128 leaves = 0;
    StateBlob& child = children_[ply];
    for (uint32_t k = 0; k < n; ++k) {
      std::copy(state.begin(), state.end(), child.begin());
      game_.apply_move(child, moves[k]);
      leaves += count(child, depth - 1, ply + 1);
    }
    return leaves;
  }

private:
  const GameInstance& game_;
  // Per ply, grown on first use; deques, because callers up the recursion hold references into them.
  std::deque<std::vector<uint32_t>> moves_;
  std::deque<StateBlob> children_;
};

} // namespace

std::string to_string(uint128 value) {
  if (value == 0) return "0";
  std::string digits;
  for (; value != 0; value /= 10) digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
  std::reverse(digits.begin(), digits.end());
  return digits;
}

uint128 generic_perft(const GameInstance& game, const StateBlob& state, uint32_t depth) {
  if (state.size() != game.state_size())
    throw std::invalid_argument(
        fmt::format("state is {} bytes, game '{}' states are {}", state.size(), game.game().name, game.state_size()));
  return GenericPerft(game).count(state, depth);
}

} // namespace gsdk::core
