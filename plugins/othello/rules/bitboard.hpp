// bitboard.hpp - Othello's board arithmetic on 64-bit masks, one spelling for CPU and CUDA.
//
// Square s = 8 * row + column, a1 = 0, h1 = 7, a8 = 56 (the order of the 64-character board text).
// Moves and flips propagate along the eight directions by shifts. Horizontal and diagonal lines
// must not wrap from column h to column a, so the discs they may run through are masked to columns
// b..g: a line that reaches column a or h there ends, which is exactly where a real line ends.
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"

namespace othello {

using Bitboard = uint64_t;

inline constexpr Bitboard kInnerColumns = 0x7e7e7e7e7e7e7e7eull;

GSDK_HD Bitboard square_bit(uint32_t square) { return Bitboard{1} << square; }

template <int Step> GSDK_HD Bitboard shift(Bitboard b) {
  if constexpr (Step > 0) return b << Step;
  else return b >> -Step;
}

// Squares reached from `from` by a contiguous run of `line` discs in direction Step (runs of up to six,
// the longest a line can hold between two squares). The first step and five more.
template <int Step> GSDK_HD Bitboard run_from(Bitboard from, Bitboard line) {
  Bitboard run = line & shift<Step>(from);
  run |= line & shift<Step>(run);
  run |= line & shift<Step>(run);
  run |= line & shift<Step>(run);
  run |= line & shift<Step>(run);
  run |= line & shift<Step>(run);
  return run;
}

// Empty squares where the side owning `own` may move: each ends a run of opponent discs that starts
// next to one of its own.
GSDK_HD Bitboard legal_moves(Bitboard own, Bitboard opponent) {
  const Bitboard inner = opponent & kInnerColumns;
  Bitboard moves = shift<1>(run_from<1>(own, inner)) | shift<-1>(run_from<-1>(own, inner));
  moves |= shift<8>(run_from<8>(own, opponent)) | shift<-8>(run_from<-8>(own, opponent));
  moves |= shift<7>(run_from<7>(own, inner)) | shift<-7>(run_from<-7>(own, inner));
  moves |= shift<9>(run_from<9>(own, inner)) | shift<-9>(run_from<-9>(own, inner));
  return moves & ~(own | opponent);
}

// The run in direction Step when it is closed by one of the mover's discs, else nothing.
template <int Step> GSDK_HD Bitboard closed_run(Bitboard move, Bitboard own, Bitboard line) {
  const Bitboard run = run_from<Step>(move, line);
  const Bitboard closed = shift<Step>(run) & own;
  return closed ? run : 0;
}

// Discs that a move on `square` turns over. The square must be a legal move.
GSDK_HD Bitboard flips(Bitboard own, Bitboard opponent, uint32_t square) {
  const Bitboard move = square_bit(square);
  const Bitboard inner = opponent & kInnerColumns;
  Bitboard flipped = closed_run<1>(move, own, inner) | closed_run<-1>(move, own, inner);
  flipped |= closed_run<8>(move, own, opponent) | closed_run<-8>(move, own, opponent);
  flipped |= closed_run<7>(move, own, inner) | closed_run<-7>(move, own, inner);
  flipped |= closed_run<9>(move, own, inner) | closed_run<-9>(move, own, inner);
  return flipped;
}

GSDK_HD uint32_t lowest_square(Bitboard b) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__ffsll(static_cast<long long>(b)) - 1);
#else
  return static_cast<uint32_t>(__builtin_ctzll(b));
#endif
}

// The k-th lowest set square of b (k < popcount(b)).
GSDK_HD uint32_t nth_square(Bitboard b, uint32_t k) {
#if defined(__CUDA_ARCH__)
  const auto low = static_cast<uint32_t>(b);
  const uint32_t low_count = static_cast<uint32_t>(__popc(low));
  if (k < low_count) return static_cast<uint32_t>(__fns(low, 0, static_cast<int>(k) + 1));
  return 32u + static_cast<uint32_t>(__fns(static_cast<uint32_t>(b >> 32), 0, static_cast<int>(k - low_count) + 1));
#else
  for (; k > 0; --k) b &= b - 1;
  return lowest_square(b);
#endif
}

} // namespace othello
