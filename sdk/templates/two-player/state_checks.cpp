// state_checks.cpp - connect_four's position checks: the structure of the board, and a search for a move
// order that builds it.
#include "state_checks.hpp"

#include <vector>

namespace connect_four {

namespace {

const char* const kPlayerNames[2] = {"X", "O"};

// The discs of `column` in `discs`, as a height: the board's structure keeps them at the bottom.
uint32_t height(uint64_t discs, uint32_t column) {
  return static_cast<uint32_t>(gsdk::bits::popcount64(discs & column_cells(column)));
}

// Memo of the search below: one flag per set of column heights (7^7 of them), set once no move order is
// found to build the bottom part of the position of those heights.
class DeadEnds {
public:
  DeadEnds() : dead_(kKeys) {}
  static uint32_t key(uint64_t filled) {
    uint32_t key = 0;
    for (uint32_t c = 0; c < kColumns; ++c) key = key * (kRows + 1) + height(filled, c);
    return key;
  }
  bool known(uint64_t filled) const { return dead_[key(filled)]; }
  void add(uint64_t filled) { dead_[key(filled)] = true; }

private:
  static constexpr uint32_t kKeys = 823543; // (kRows + 1)^kColumns
  std::vector<bool> dead_;
};

// Takes moves back, last first: the last mover's disc on top of some column, leaving a position where
// nobody has four in a row (the game would have ended there). Reaching the empty board proves `s` reachable.
bool build_order_exists(const State& s, DeadEnds& dead_ends) {
  const uint64_t filled = occupied(s);
  if (filled == 0) return true;
  if (dead_ends.known(filled)) return false;
  const uint32_t last_mover = player_to_move(s) ^ 1u;
  for (uint32_t c = 0; c < kColumns; ++c) {
    const uint64_t column = filled & column_cells(c);
    if (column == 0) continue;
    const uint64_t top = (column + bottom_cell(c)) >> 1;
    if ((s.discs[last_mover] & top) == 0) continue;
    State before = s;
    before.discs[last_mover] &= ~top;
    if (has_four(before.discs[0]) || has_four(before.discs[1])) continue;
    if (build_order_exists(before, dead_ends)) return true;
  }
  dead_ends.add(filled);
  return false;
}

} // namespace

std::string structure_problem(const State& s) {
  if (((s.discs[0] | s.discs[1]) & ~kBoard) != 0) return "discs outside the 7x6 board";
  if ((s.discs[0] & s.discs[1]) != 0) return "a cell holds discs of both players";
  const uint64_t filled = occupied(s);
  for (uint32_t c = 0; c < kColumns; ++c) {
    const uint64_t column = filled & column_cells(c);
    if (((column + bottom_cell(c)) & column) != 0)
      return "column " + std::to_string(c + 1) + " has a disc above an empty cell";
  }
  const int x = gsdk::bits::popcount64(s.discs[0]), o = gsdk::bits::popcount64(s.discs[1]);
  if (x != o && x != o + 1)
    return "X has " + std::to_string(x) + " discs and O " + std::to_string(o) +
           ": X moves first, so X has as many discs as O or one more";
  const bool x_four = has_four(s.discs[0]), o_four = has_four(s.discs[1]);
  if (x_four && o_four) return "both X and O have four in a row";
  const uint32_t last_mover = player_to_move(s) ^ 1u;
  if (x_four || o_four) {
    const uint32_t winner = x_four ? 0 : 1;
    if (winner != last_mover)
      return std::string(kPlayerNames[winner]) + " has four in a row, but " + kPlayerNames[last_mover] +
             " moved after that";
  }
  return "";
}

bool reachable(const State& s) {
  DeadEnds dead_ends;
  return build_order_exists(s, dead_ends);
}

} // namespace connect_four
