// perft_avx512.cpp - othello's CPU perft with the last two plies on AVX-512: a position's moves go
// eight to a vector, each lane makes its move and counts its child's replies with a lane popcount.
// Children that cannot move (a pass or the end, whose counts depend on the convention) are rare and
// go through the portable rules.
#include <immintrin.h>

#include "bitboard_avx512.hpp"
#include "gsdk/isa.hpp"
#include "perft_cpu.hpp"
#include "perft_recursion.hpp"

GSDK_BEGIN_AVX512

namespace othello::cpu {

namespace {

uint64_t perft2_avx512(const Position& p, Convention c) {
  const Bitboard moves = othello::legal_moves(p);
  if (moves == 0) return perft2(p, c);
  const __m512i own = _mm512_set1_epi64(static_cast<long long>(p.own));
  const __m512i opponent = _mm512_set1_epi64(static_cast<long long>(p.opponent));
  // Lane i takes the i-th move of each group of eight: pdep spreads the group's squares to lanes.
  alignas(64) uint64_t move[8];
  uint64_t leaves = 0;
  for (Bitboard rest = moves; rest;) {
    __mmask8 lanes = 0;
    for (int lane = 0; lane < 8; ++lane) {
      move[lane] = rest & (0 - rest);
      rest &= rest - 1;
      lanes |= static_cast<__mmask8>(move[lane] ? 1u << lane : 0u);
    }
    const __m512i m = _mm512_load_si512(move);
    const __m512i flipped = avx512::flips(own, opponent, m);
    // The child from its mover's view: the opponent's discs less those turned, against the rest.
    const __m512i child_own = _mm512_xor_si512(opponent, flipped);
    const __m512i child_opponent = _mm512_or_si512(own, _mm512_or_si512(flipped, m));
    const __m512i replies = avx512::legal_moves(child_own, child_opponent);
    leaves += static_cast<uint64_t>(_mm512_reduce_add_epi64(_mm512_maskz_popcnt_epi64(lanes, replies)));
    __mmask8 stuck = _mm512_mask_cmpeq_epi64_mask(lanes, replies, _mm512_setzero_si512());
    while (stuck) {
      const int lane = __builtin_ctz(stuck);
      stuck &= static_cast<__mmask8>(stuck - 1);
      leaves += perft1(child(p, lowest_square(move[lane]), c), c);
    }
  }
  return leaves;
}

} // namespace

uint64_t perft_avx512(const Position& p, uint32_t depth, Convention c) { return perft_with(p, depth, c, perft2_avx512); }

} // namespace othello::cpu

GSDK_END_ISA
