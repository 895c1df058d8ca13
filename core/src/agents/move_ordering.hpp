// move_ordering.hpp - the order in which alpha-beta tries a node's moves: the transposition table's move first, then
// the ply's killer moves (moves that cut off at a sibling node), then the rest by the game's evaluation of the
// children, ties broken by the history heuristic (how often and how deep a move cut off before). A good order makes
// the first move the best one, which is what principal variation search's null windows bet on.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gsdk::core {

class MoveOrdering {
public:
  MoveOrdering();

  // Forgets every killer and the whole history (a new game).
  void clear();
  // Before a move's search: killers belong to the plies of the last root, so they go; the history is halved, so
  // that the current position's cutoffs soon outweigh older ones.
  void new_search();

  // Fills `order` with the indices of `moves`, best first. `statics` are the children's values to `player`.
  void order(std::span<const uint32_t> moves, std::span<const int32_t> statics, std::optional<uint32_t> table_move,
             int32_t player, size_t ply, std::vector<int32_t>& order);

  // `move` of `player` refuted the opponent's move at `ply` with `depth` plies left below.
  void record_cutoff(uint32_t move, int32_t player, size_t ply, int32_t depth);

private:
  // Move codes are the game's own (any 32-bit value): the history is a small table indexed by the code's low bits,
  // where a collision only blurs the order.
  static constexpr uint32_t kHistorySlots = 4096;
  static constexpr size_t kKillersPerPly = 2;
  using Killers = std::array<std::optional<uint32_t>, kKillersPerPly>;

  uint32_t& history(int32_t player, uint32_t move) { return history_[(player & 1) * kHistorySlots + move % kHistorySlots]; }

  std::vector<Killers> killers_;
  std::vector<uint32_t> history_;
  std::vector<int32_t> rank_; // scratch: each move's class (table move, killer, rest)
};

} // namespace gsdk::core
