// board_symmetry.hpp - a bitboard seen through each of the 8 board symmetries of rules/patterns.hpp's
// transform, by whole-board bit operations, so that the fast pattern sum (cpu/pattern_sum_cpu.cpp) gathers an
// instance's squares with the base shape's mask, and so that hashed perft keys a position by the smallest of its
// images (rules/canonical.hpp). The three board operations are host and device code; the image array is host only.
#pragma once

#include <array>
#include <cstdint>

#include "bitboard.hpp"

namespace othello {

// Row r becomes row 7 - r: the bytes reversed, by three swaps (the host compiler makes them one bswap; the device
// has no 64-bit byte swap builtin).
GSDK_HD constexpr Bitboard flip_rows(Bitboard b) {
  b = ((b >> 8) & 0x00ff00ff00ff00ffu) | ((b & 0x00ff00ff00ff00ffu) << 8);
  b = ((b >> 16) & 0x0000ffff0000ffffu) | ((b & 0x0000ffff0000ffffu) << 16);
  return (b >> 32) | (b << 32);
}

// Column c becomes column 7 - c: the bits of every byte reversed (chessprogramming.org, mirrorHorizontal).
GSDK_HD constexpr Bitboard flip_columns(Bitboard b) {
  b = ((b >> 1) & 0x5555555555555555u) | ((b & 0x5555555555555555u) << 1);
  b = ((b >> 2) & 0x3333333333333333u) | ((b & 0x3333333333333333u) << 2);
  return ((b >> 4) & 0x0f0f0f0f0f0f0f0fu) | ((b & 0x0f0f0f0f0f0f0f0fu) << 4);
}

// Square (row, column) becomes (column, row): three delta swaps (chessprogramming.org, flipDiagA1H8).
GSDK_HD constexpr Bitboard transpose(Bitboard b) {
  Bitboard t = 0x0f0f0f0f00000000u & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = 0x3333000033330000u & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = 0x5500550055005500u & (b ^ (b << 7));
  return b ^ t ^ (t >> 7);
}

// images[g]: bit s is bit transform(g, s) of b, for every symmetry g. transform flips rows (g & 1), then columns
// (g & 2), then transposes (g & 4); pulling a board back through that composition applies the board operations
// in the reverse order: transpose first, then the flips (which commute).
constexpr std::array<Bitboard, 8> pulled_back_images(Bitboard b) {
  std::array<Bitboard, 8> images{};
  const Bitboard bases[2] = {b, transpose(b)};
  for (uint32_t t = 0; t < 2; ++t) {
    const Bitboard mirrored = flip_columns(bases[t]);
    images[4 * t] = bases[t];
    images[4 * t + 1] = flip_rows(bases[t]);
    images[4 * t + 2] = mirrored;
    images[4 * t + 3] = flip_rows(mirrored);
  }
  return images;
}

} // namespace othello
