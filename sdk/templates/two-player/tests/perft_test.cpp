// perft_test.cpp - connect_four's move generation against numbers it did not produce: the CPU perft table
// against a brute force over a plain array board written here, and the distinct positions after each ply
// against the published count.
#include <array>
#include <initializer_list>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "test_game.hpp"

namespace connect_four {
namespace {

using test::game;
using test::position;

// The rules again, as a newcomer would first write them: a grid of cells and a scan of every line.
class ArrayBoard {
public:
  bool full(int column) const { return heights_[column] == kRows; }
  bool won() const { return won_; }
  void drop(int column) {
    const int row = heights_[column]++;
    cells_[row][column] = mover_;
    won_ = wins_at(row, column);
    mover_ = 3 - mover_;
  }
  void undo(int column) {
    cells_[--heights_[column]][column] = 0;
    mover_ = 3 - mover_;
    won_ = false;
  }

private:
  // Whether the disc at (row, column) completes four in a row of its owner.
  bool wins_at(int row, int column) const {
    const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (const auto& d : directions) {
      int run = 1;
      for (int sign : {1, -1})
        for (int k = 1; k < 4; ++k) {
          const int r = row + sign * k * d[0], c = column + sign * k * d[1];
          if (r < 0 || r >= int(kRows) || c < 0 || c >= int(kColumns) || cells_[r][c] != cells_[row][column]) break;
          ++run;
        }
      if (run >= 4) return true;
    }
    return false;
  }

  int cells_[kRows][kColumns] = {};
  int heights_[kColumns] = {};
  int mover_ = 1;
  bool won_ = false;
};

uint64_t brute_force_perft(ArrayBoard& board, int depth) {
  if (depth == 0) return 1;
  if (board.won()) return 0;
  uint64_t leaves = 0;
  for (int c = 0; c < int(kColumns); ++c) {
    if (board.full(c)) continue;
    board.drop(c);
    leaves += brute_force_perft(board, depth - 1);
    board.undo(c);
  }
  return leaves;
}

TEST(Perft, TableMatchesABruteForceOnAnArrayBoard) {
  // From the empty board: 7^d until the first player can win on ply 7.
  const uint64_t expected[] = {1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
  const State empty = position("");
  for (uint32_t depth = 0; depth < std::size(expected); ++depth) {
    ArrayBoard board;
    EXPECT_EQ(brute_force_perft(board, int(depth)), expected[depth]) << "depth " << depth;
    EXPECT_EQ(game().cpu_perft(empty, depth), expected[depth]) << "depth " << depth;
  }
  // From positions where wins and full columns come at once.
  for (const char* moves : {"4444443", "112233", "21717117161", "2253445336734535762126455227377711416411"}) {
    ArrayBoard board;
    for (const char* m = moves; *m; ++m) board.drop(*m - '1');
    for (uint32_t depth = 1; depth <= 5; ++depth)
      EXPECT_EQ(game().cpu_perft(position(moves), depth), brute_force_perft(board, int(depth)))
          << moves << " depth " << depth;
  }
}

struct StateHash {
  size_t operator()(const State& s) const {
    return std::hash<uint64_t>()(s.discs[0] * 0x9e3779b97f4a7c15ull ^ s.discs[1]);
  }
};
struct StateEqual {
  bool operator()(const State& a, const State& b) const { return a.discs[0] == b.discs[0] && a.discs[1] == b.discs[1]; }
};

TEST(Perft, DistinctPositionsAfterEachPlyMatchThePublishedCount) {
  // OEIS A212693 (John Tromp): legal 7x6 Connect Four positions after n plies, n = 0, 1, ... These count
  // positions, not move sequences (perft): 238 after three plies where perft counts 343 paths.
  const uint64_t published[] = {1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275};
  std::vector<State> level = {position("")};
  for (uint32_t ply = 0; ply < std::size(published); ++ply) {
    EXPECT_EQ(level.size(), published[ply]) << "after " << ply << " plies";
    std::unordered_set<State, StateHash, StateEqual> next;
    for (const State& s : level) {
      std::array<uint32_t, kColumns> moves;
      const uint32_t n = game().legal_moves(s, moves.data(), nullptr);
      for (uint32_t k = 0; k < n; ++k) {
        State child = s;
        game().apply_move(child, moves[k]);
        next.insert(child);
      }
    }
    level.assign(next.begin(), next.end());
  }
}

} // namespace
} // namespace connect_four
