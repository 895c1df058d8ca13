// rules.hpp - the rules of connect_four (Connect Four on a 7x6 board), written once for every path that
// plays the game: the per-state table (tree search, tests), CPU perft and playouts, and the CUDA kernels.
// Plain data and GSDK_HD functions only: no allocation, no exceptions, no virtual calls.
//
// Two players drop discs in turn into one of seven columns; a disc falls to the lowest empty cell. Whoever
// first has four discs in a row (across, up or diagonally) wins; a full board without one is a draw.
// Player 0 ("X") moves first. A move is a column 0..6 (written 1..7 in text).
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"
#include "gsdk/rng/philox.hpp"

namespace connect_four {

inline constexpr uint32_t kColumns = 7;
inline constexpr uint32_t kRows = 6;
inline constexpr uint32_t kCells = kColumns * kRows;

// The bitboard layout: column c holds bits 7c (bottom) .. 7c + 5 (top); bit 7c + 6 stays empty, so that a
// line of four shifted across a column edge runs into an empty bit instead of wrapping into the next column.
inline constexpr uint32_t kColumnBits = kRows + 1;

GSDK_HD uint64_t bottom_cell(uint32_t column) {
  return uint64_t{1} << (kColumnBits * column);
}
GSDK_HD uint64_t top_cell(uint32_t column) {
  return bottom_cell(column) << (kRows - 1);
}
GSDK_HD uint64_t column_cells(uint32_t column) {
  return ((uint64_t{1} << kRows) - 1) << (kColumnBits * column);
}

inline constexpr uint64_t kBottomRow = 0x40810204081ull;                      // bottom_cell(0) | ... | bottom_cell(6)
inline constexpr uint64_t kBoard = kBottomRow * ((uint64_t{1} << kRows) - 1); // every cell of the board
static_assert(kBoard == 0xfdfbf7efdfbfull, "the 7x6 board with a spare bit on top of each column");

// The whole state: each player's discs. A POD blob the host copies, hashes and moves to a GPU as bytes,
// 16 bytes without padding. The side to move follows from the number of discs.
struct State {
  uint64_t discs[2]; // discs[p]: the cells player p occupies
};

GSDK_HD uint64_t occupied(const State& s) {
  return s.discs[0] | s.discs[1];
}
GSDK_HD uint32_t plies(const State& s) {
  return static_cast<uint32_t>(gsdk::bits::popcount64(occupied(s)));
}
GSDK_HD uint32_t player_to_move(const State& s) {
  return plies(s) & 1u;
}

// Whether `discs` hold four in a row. A shift by 1 steps up a column, by 7 across a row, by 6 and 8 along
// the two diagonals; pairs of neighbours, then pairs of pairs.
GSDK_HD bool has_four(uint64_t discs) {
  const uint32_t steps[4] = {1, kColumnBits, kColumnBits - 1, kColumnBits + 1};
  for (uint32_t step : steps) {
    const uint64_t pairs = discs & (discs >> step);
    if (pairs & (pairs >> (2 * step))) return true;
  }
  return false;
}

GSDK_HD bool game_over(const State& s) {
  return has_four(s.discs[0]) || has_four(s.discs[1]) || occupied(s) == kBoard;
}

// Player 0's result: 1 when player 0 has four in a row, -1 when player 1 has, 0 otherwise (a draw once the
// board is full). This is the game's score.
GSDK_HD int32_t outcome(const State& s) {
  return has_four(s.discs[0]) ? 1 : has_four(s.discs[1]) ? -1 : 0;
}

// The legal moves as a mask, bit c for column c: the columns whose top cell is empty, none once the game is over.
GSDK_HD uint32_t legal_columns(const State& s) {
  if (game_over(s)) return 0;
  const uint64_t filled = occupied(s);
  uint32_t columns = 0;
  for (uint32_t c = 0; c < kColumns; ++c)
    if ((filled & top_cell(c)) == 0) columns |= 1u << c;
  return columns;
}

// The lowest column of the mask `columns` (not empty): the bits below its lowest set bit, counted.
GSDK_HD uint32_t lowest_column(uint32_t columns) {
  return static_cast<uint32_t>(gsdk::bits::popcount32((columns & (0u - columns)) - 1));
}

// The n-th (from 0) column of the mask `columns`.
GSDK_HD uint32_t nth_column(uint32_t columns, uint32_t n) {
  for (; n > 0; --n) columns &= columns - 1;
  return lowest_column(columns);
}

// Drops the mover's disc into `column`, which must be legal. The column's discs fill it from the bottom, so
// adding its bottom bit carries into the first empty cell, and only that cell.
// The disc goes to the mover's board by a select, not by indexing discs with the mover: nvcc 13.0 (-O1 and up,
// sm_90) miscompiles a kernel that indexes a local State that way and then counts moves from it in a loop
// (perft 2 of a child gave 0 for every child of the empty board; gsdk check's perft.cuda_table caught it).
GSDK_HD void play(State& s, uint32_t column) {
  const uint64_t disc = (occupied(s) + bottom_cell(column)) & column_cells(column);
  if (player_to_move(s) == 0)
    s.discs[0] |= disc;
  else
    s.discs[1] |= disc;
}

// perft(s, 1): the legal moves, counted without making them.
GSDK_HD uint32_t perft1(const State& s) {
  return static_cast<uint32_t>(gsdk::bits::popcount32(legal_columns(s)));
}

// perft(s, 2): the legal replies to each legal move.
GSDK_HD uint32_t perft2(const State& s) {
  uint32_t leaves = 0;
  for (uint32_t columns = legal_columns(s); columns != 0; columns &= columns - 1) {
    State child = s;
    play(child, lowest_column(columns));
    leaves += perft1(child);
  }
  return leaves;
}

// Plays one uniformly random game from `s` to its end, in place, calling log(column) after each move. The
// randomness is the stream (seed, playout) and nothing else: each move draws one column uniformly among the
// legal ones. Every path plays this one function (CPU playouts, replay, and the CUDA tables through
// device_rules.hpp), so they cannot disagree.
template <typename Log> GSDK_HD void play_out(State& s, uint64_t seed, uint64_t playout, Log log) {
  gsdk::rng::PhiloxStream random(seed, playout);
  for (uint32_t columns = legal_columns(s); columns != 0; columns = legal_columns(s)) {
    const uint32_t column = nth_column(columns, random.below(static_cast<uint32_t>(gsdk::bits::popcount32(columns))));
    play(s, column);
    log(column);
  }
}

} // namespace connect_four
