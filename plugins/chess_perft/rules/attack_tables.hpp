// attack_tables.hpp - rays, knight, king and pawn attack tables, built at compile time, with one
// accessor that reads host memory on the CPU and device global memory (L1-cached) on the GPU.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "rules/isa.hpp"
#include "rules/magic_attacks.hpp"
#include "rules/position.hpp"
#if defined(CHESS_USE_PEXT)
#include <immintrin.h>

#include "rules/pext_attacks.hpp"
#endif

namespace chess {
CHESS_ISA_BEGIN

// Ray directions. Positive ones (index < 4) grow the square number, so their first blocker is the
// lowest set bit; negative ones the highest.
enum Direction : int { kNorth, kNorthEast, kEast, kNorthWest, kSouth, kSouthWest, kWest, kSouthEast };
inline constexpr int kDirectionCount = 8;
GSDK_HD constexpr bool is_diagonal(int d) { return d == kNorthEast || d == kNorthWest || d == kSouthWest || d == kSouthEast; }
GSDK_HD constexpr int opposite(int d) { return (d + 4) & 7; }

inline constexpr Bitboard kFileA = 0x0101010101010101ull, kFileH = kFileA << 7;
inline constexpr Bitboard kRank1 = 0xffull, kRank8 = kRank1 << 56;

struct AttackTables {
  Bitboard ray[kDirectionCount][64]; // squares strictly beyond sq in that direction, to the edge
  Bitboard line[4][64];              // file, rank, diagonal, anti-diagonal through sq, without sq
  Bitboard bishop_lines[64];         // both diagonals through sq: where a bishop could ever reach
  Bitboard rook_lines[64];           // file and rank through sq
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard pawn[2][64];              // squares a pawn of that color on sq attacks
  Bitboard between[64][64];          // squares strictly between two squares on a line, else none
  uint8_t castling_kept[64];         // castling rights that survive a move from or to sq
};

namespace detail {

constexpr int kFileStep[kDirectionCount] = {0, 1, 1, -1, 0, -1, -1, 1};
constexpr int kRankStep[kDirectionCount] = {1, 1, 0, 1, -1, -1, 0, -1};

constexpr Bitboard offsets(int sq, const int (&df)[8], const int (&dr)[8], int count) {
  Bitboard b = 0;
  for (int i = 0; i < count; ++i) {
    const int f = sq % 8 + df[i], r = sq / 8 + dr[i];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= Bitboard{1} << (r * 8 + f);
  }
  return b;
}

constexpr AttackTables build_tables() {
  AttackTables t{};
  constexpr int knight_df[8] = {1, 2, 2, 1, -1, -2, -2, -1}, knight_dr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
  constexpr int king_df[8] = {0, 1, 1, 1, 0, -1, -1, -1}, king_dr[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  constexpr int white_pawn_df[8] = {-1, 1}, white_pawn_dr[8] = {1, 1};
  constexpr int black_pawn_df[8] = {-1, 1}, black_pawn_dr[8] = {-1, -1};
  for (int sq = 0; sq < 64; ++sq) {
    for (int d = 0; d < kDirectionCount; ++d) {
      Bitboard b = 0;
      for (int f = sq % 8 + kFileStep[d], r = sq / 8 + kRankStep[d]; f >= 0 && f < 8 && r >= 0 && r < 8;
           f += kFileStep[d], r += kRankStep[d])
        b |= Bitboard{1} << (r * 8 + f);
      t.ray[d][sq] = b;
    }
    for (int d = 0; d < kDirectionCount; ++d) {
      Bitboard passed = 0;
      for (int f = sq % 8 + kFileStep[d], r = sq / 8 + kRankStep[d]; f >= 0 && f < 8 && r >= 0 && r < 8;
           f += kFileStep[d], r += kRankStep[d]) {
        t.between[sq][r * 8 + f] = passed;
        passed |= Bitboard{1} << (r * 8 + f);
      }
    }
    t.line[0][sq] = t.ray[kNorth][sq] | t.ray[kSouth][sq];
    t.line[1][sq] = t.ray[kEast][sq] | t.ray[kWest][sq];
    t.line[2][sq] = t.ray[kNorthEast][sq] | t.ray[kSouthWest][sq];
    t.line[3][sq] = t.ray[kNorthWest][sq] | t.ray[kSouthEast][sq];
    t.bishop_lines[sq] = t.line[2][sq] | t.line[3][sq];
    t.rook_lines[sq] = t.line[0][sq] | t.line[1][sq];
    t.knight[sq] = offsets(sq, knight_df, knight_dr, 8);
    t.king[sq] = offsets(sq, king_df, king_dr, 8);
    t.pawn[kWhite][sq] = offsets(sq, white_pawn_df, white_pawn_dr, 2);
    t.pawn[kBlack][sq] = offsets(sq, black_pawn_df, black_pawn_dr, 2);
    t.castling_kept[sq] = 0xff;
  }
  t.castling_kept[0] = static_cast<uint8_t>(~kWhiteLong);
  t.castling_kept[4] = static_cast<uint8_t>(~(kWhiteShort | kWhiteLong));
  t.castling_kept[7] = static_cast<uint8_t>(~kWhiteShort);
  t.castling_kept[56] = static_cast<uint8_t>(~kBlackLong);
  t.castling_kept[60] = static_cast<uint8_t>(~(kBlackShort | kBlackLong));
  t.castling_kept[63] = static_cast<uint8_t>(~kBlackShort);
  return t;
}

inline constexpr AttackTables kHostTables = build_tables();
#if defined(__CUDACC__)
static __device__ const AttackTables kDeviceTables = build_tables();
#endif

} // namespace detail

GSDK_HD const AttackTables& tables() {
#if defined(__CUDA_ARCH__)
  return detail::kDeviceTables;
#else
  return detail::kHostTables;
#endif
}

GSDK_HD int lowest_square(Bitboard b) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(b)) - 1;
#else
  return __builtin_ctzll(b);
#endif
}
// The squares of b as unsigned indices (a signed one costs the GPU a sign extension at every table
// access): `for (uint32_t sq : squares(b))`, lowest first on the host, highest first on the GPU. On the
// GPU a 64-bit bit scan and clear take about fifteen integer instructions; stepping through the two
// 32-bit halves in one loop takes about half that (one loop, not one per half, so a warp's lanes keep
// stepping together), and finding the highest bit is one instruction (FLO) where the lowest takes two
// (BREV, FLO). A range, not a callback, so the loop body stays inline for GCC too.
class Squares {
public:
  GSDK_HD explicit Squares(Bitboard b) : bits_(b) {}
  struct End {};
#if defined(__CUDA_ARCH__)
  class Iterator {
  public:
    GSDK_HD explicit Iterator(Bitboard b)
        : bits_(static_cast<uint32_t>(b >> 32)), rest_(static_cast<uint32_t>(b)) {
      if (!bits_) next_half();
    }
    GSDK_HD uint32_t operator*() const { return base_ + highest_bit(); }
    GSDK_HD void operator++() {
      bits_ ^= 1u << highest_bit();
      if (!bits_) next_half();
    }
    GSDK_HD bool operator!=(End) const { return bits_ != 0; }

  private:
    __device__ uint32_t highest_bit() const {
      uint32_t bit;
      asm("bfind.u32 %0, %1;" : "=r"(bit) : "r"(bits_));
      return bit;
    }
    GSDK_HD void next_half() {
      bits_ = rest_;
      rest_ = 0;
      base_ = 0;
    }
    uint32_t bits_, rest_, base_ = 32;
  };
#else
  class Iterator {
  public:
    explicit Iterator(Bitboard b) : bits_(b) {}
    uint32_t operator*() const { return static_cast<uint32_t>(__builtin_ctzll(bits_)); }
    void operator++() { bits_ &= bits_ - 1; }
    bool operator!=(End) const { return bits_ != 0; }

  private:
    Bitboard bits_;
  };
#endif
  GSDK_HD Iterator begin() const { return Iterator(bits_); }
  GSDK_HD End end() const { return {}; }

private:
  Bitboard bits_;
};
GSDK_HD Squares squares(Bitboard b) { return Squares(b); }

GSDK_HD int highest_square(Bitboard b) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(b));
#else
  return 63 - __builtin_clzll(b);
#endif
}
GSDK_HD int popcount(Bitboard b) {
#if defined(__CUDA_ARCH__)
  return __popcll(b);
#else
  return __builtin_popcountll(b);
#endif
}

// Attacks from sq along direction d, up to and including the first occupied square. Branch-free: a
// sentinel on the far corner (whose own ray that way is empty) stands in for "no blocker", so GPU
// threads of a warp never diverge here.
GSDK_HD Bitboard ray_attacks(int sq, int d, Bitboard occupied) {
  const Bitboard* ray = tables().ray[d];
  const Bitboard attacks = ray[sq];
  const bool positive = d < 4;
  const Bitboard blockers = (attacks & occupied) | (positive ? Bitboard{1} << 63 : Bitboard{1});
  return attacks ^ ray[positive ? lowest_square(blockers) : highest_square(blockers)];
}

#if defined(CHESS_USE_PEXT)
inline Bitboard bishop_attacks(uint32_t sq, Bitboard occupied) {
  const pext::Slider& s = pext::tables.bishop;
  return pext::tables.attacks[s.offset[sq] + _pext_u64(occupied, s.mask[sq])];
}
inline Bitboard rook_attacks(uint32_t sq, Bitboard occupied) {
  const pext::Slider& s = pext::tables.rook;
  return pext::tables.attacks[s.offset[sq] + _pext_u64(occupied, s.mask[sq])];
}
#else
// Attacks along one line by obstruction difference: the nearest blocker below sq (or bit 0) and the
// nearest above bound the attacked run; one subtraction finds it. Branch-free, one mask load per line
// where ray scans need two dependent loads per direction.
GSDK_HD Bitboard line_attacks(int sq, Bitboard line, Bitboard occupied) {
  const Bitboard below = line & ((Bitboard{1} << sq) - 1);
  const Bitboard lower = below & occupied, upper = (line ^ below) & occupied;
  const Bitboard nearest_below = Bitboard{1} << highest_square(lower | 1);
  return line & (upper ^ (upper - nearest_below));
}

GSDK_HD Bitboard bishop_attacks(uint32_t sq, Bitboard occupied) {
#if defined(__CUDA_ARCH__)
  return magic::device_lookup(magic::kDeviceBishop[sq], occupied);
#else
  const AttackTables& t = tables();
  return line_attacks(sq, t.line[2][sq], occupied) | line_attacks(sq, t.line[3][sq], occupied);
#endif
}
GSDK_HD Bitboard rook_attacks(uint32_t sq, Bitboard occupied) {
#if defined(__CUDA_ARCH__)
  return magic::device_lookup(magic::kDeviceRook[sq], occupied);
#else
  const AttackTables& t = tables();
  return line_attacks(sq, t.line[0][sq], occupied) | line_attacks(sq, t.line[1][sq], occupied);
#endif
}
#endif

// The occupancy that can change a slider's attacks from sq: its lines without the board edges they
// run into (a piece on the edge hides nothing behind it). PEXT and magic indices are built from it.
GSDK_HD Bitboard relevant_occupancy(int sq, bool diagonal) {
  const AttackTables& t = tables();
  constexpr Bitboard edges = kFileA | kFileH | kRank1 | kRank8;
  if (diagonal) return (t.line[2][sq] | t.line[3][sq]) & ~edges;
  return (t.line[0][sq] & ~(kRank1 | kRank8)) | (t.line[1][sq] & ~(kFileA | kFileH));
}

// Calls f(subset) for every subset of mask, in increasing PEXT-index order (carry-rippler), for
// building lookup tables.
template <class F> void for_each_subset(Bitboard mask, F f) {
  Bitboard subset = 0;
  do {
    f(subset);
    subset = (subset - mask) & mask;
  } while (subset);
}

// Slider attacks by ray scans, for building lookup tables.
GSDK_HD Bitboard slider_attacks_by_rays(int sq, bool diagonal, Bitboard occupied) {
  Bitboard attacks = 0;
  for (int d = 0; d < kDirectionCount; ++d)
    if (is_diagonal(d) == diagonal) attacks |= ray_attacks(sq, d, occupied);
  return attacks;
}

// Pawns of color c shifted one step forward (toward the opponent).
template <int C> GSDK_HD Bitboard pawn_push(Bitboard b) { return C == kWhite ? b << 8 : b >> 8; }


// Squares attacked by pawns of color c toward the a-file side (west) and the h-file side (east).
template <int C> GSDK_HD Bitboard pawn_attacks_west(Bitboard pawns) {
  return C == kWhite ? (pawns & ~kFileA) << 7 : (pawns & ~kFileA) >> 9;
}
template <int C> GSDK_HD Bitboard pawn_attacks_east(Bitboard pawns) {
  return C == kWhite ? (pawns & ~kFileH) << 9 : (pawns & ~kFileH) >> 7;
}

GSDK_HD Bitboard knight_attacks_set(Bitboard knights) {
  const Bitboard l1 = (knights >> 1) & ~kFileH, l2 = (knights >> 2) & ~(kFileH | (kFileH >> 1));
  const Bitboard r1 = (knights << 1) & ~kFileA, r2 = (knights << 2) & ~(kFileA | (kFileA << 1));
  const Bitboard h1 = l1 | r1, h2 = l2 | r2;
  return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}

CHESS_ISA_END
} // namespace chess
