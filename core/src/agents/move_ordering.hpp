// move_ordering.hpp - the order in which alpha-beta tries a node's moves: the transposition table's move first, then
// the rest by the game's evaluation of the children, ties broken by the history heuristic (how often and how deep a
// move cut off before). A good order makes the first move the best one, which is what principal variation search's
// null windows bet on. Killer moves (those that cut off at a sibling node) made Othello's searches to a fixed depth
// larger (docs/perf/othello.md: 16% tried before the evaluation's order, 2% after its first move): the batched
// evaluation of the children orders better than a sibling's refutation, so they are not used.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gsdk::core {

class MoveOrdering {
public:
  MoveOrdering();

  // Forgets the whole history (a new game).
  void clear();
  // Before a move's search: the history is halved, so that the current position's cutoffs soon outweigh older ones.
  void new_search();

  // Fills `order` with the indices of `moves`, best first. `statics` are the children's values to `player`.
  void order(std::span<const uint32_t> moves, std::span<const int32_t> statics, std::optional<uint32_t> table_move,
             int32_t player, std::vector<int32_t>& order) const;

  // `move` of `player` refuted the opponent's last move with `depth` plies left below.
  void record_cutoff(uint32_t move, int32_t player, int32_t depth);

private:
  // Move codes are the game's own (any 32-bit value): the history is a small table indexed by the code's low bits,
  // where a collision only blurs the order.
  static constexpr uint32_t kHistorySlots = 4096;

  size_t slot(int32_t player, uint32_t move) const { return (player & 1) * kHistorySlots + move % kHistorySlots; }

  std::vector<uint32_t> history_;
};

} // namespace gsdk::core
