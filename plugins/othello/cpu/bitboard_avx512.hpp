// bitboard_avx512.hpp - the board arithmetic of rules/bitboard.hpp on eight boards at once, one per
// 64-bit lane of an AVX-512 vector: AVX-512 code (an instruction-set region, gsdk/isa.hpp), to be called only
// from AVX-512 code.
#pragma once

#include <immintrin.h>

#include "gsdk/isa.hpp"
#include "rules/bitboard.hpp"
#include "rules/playout_policy.hpp"

GSDK_BEGIN_AVX512

namespace othello::cpu::avx512 {

// GCC 12 bug 105593: the shift intrinsics pass _mm512_undefined_epi32(), whose `__m512i __Y = __Y;` is the header's
// deliberate "any value" idiom, and under -fsanitize (which changes what is inlined) GCC 12 reports it as
// -Wuninitialized. False: the operand is the masked-off merge source of a full-mask (-1) shift, never read.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
template <int Step> __m512i shift(__m512i b) {
  if constexpr (Step > 0) return _mm512_slli_epi64(b, Step);
  else return _mm512_srli_epi64(b, -Step);
}
#pragma GCC diagnostic pop

// run | (line & shifted): ternary logic 0xF8 over (run, line, shifted).
inline __m512i extend(__m512i run, __m512i line, __m512i shifted) { return _mm512_ternarylogic_epi64(run, line, shifted, 0xF8); }

template <int Step> __m512i run_from(__m512i from, __m512i line) {
  __m512i run = _mm512_and_si512(line, shift<Step>(from));
  for (int i = 0; i < 5; ++i) run = extend(run, line, shift<Step>(run));
  return run;
}

inline __m512i legal_moves(__m512i own, __m512i opponent) {
  const __m512i inner = _mm512_and_si512(opponent, _mm512_set1_epi64(static_cast<long long>(kInnerColumns)));
  __m512i moves = _mm512_or_si512(shift<1>(run_from<1>(own, inner)), shift<-1>(run_from<-1>(own, inner)));
  moves = _mm512_or_si512(moves, _mm512_or_si512(shift<8>(run_from<8>(own, opponent)), shift<-8>(run_from<-8>(own, opponent))));
  moves = _mm512_or_si512(moves, _mm512_or_si512(shift<7>(run_from<7>(own, inner)), shift<-7>(run_from<-7>(own, inner))));
  moves = _mm512_or_si512(moves, _mm512_or_si512(shift<9>(run_from<9>(own, inner)), shift<-9>(run_from<-9>(own, inner))));
  return _mm512_andnot_si512(_mm512_or_si512(own, opponent), moves);
}

template <int Step> __m512i closed_run(__m512i flipped, __m512i move, __m512i own, __m512i line) {
  const __m512i run = run_from<Step>(move, line);
  const __mmask8 closed = _mm512_test_epi64_mask(shift<Step>(run), own);
  return _mm512_mask_or_epi64(flipped, closed, flipped, run);
}

// Discs each lane's move turns over; a lane without a move (0) turns over nothing.
inline __m512i flips(__m512i own, __m512i opponent, __m512i move) {
  const __m512i inner = _mm512_and_si512(opponent, _mm512_set1_epi64(static_cast<long long>(kInnerColumns)));
  __m512i flipped = _mm512_setzero_si512();
  flipped = closed_run<1>(flipped, move, own, inner);
  flipped = closed_run<-1>(flipped, move, own, inner);
  flipped = closed_run<8>(flipped, move, own, opponent);
  flipped = closed_run<-8>(flipped, move, own, opponent);
  flipped = closed_run<7>(flipped, move, own, inner);
  flipped = closed_run<-7>(flipped, move, own, inner);
  flipped = closed_run<9>(flipped, move, own, inner);
  flipped = closed_run<-9>(flipped, move, own, inner);
  return flipped;
}

// rules/playout_policy.hpp's fewest_replies with eight candidate squares a vector: the same set.
inline Bitboard fewest_replies(Bitboard kept, Bitboard own, Bitboard opponent) {
  const __m512i own_v = _mm512_set1_epi64(static_cast<long long>(own));
  const __m512i opponent_v = _mm512_set1_epi64(static_cast<long long>(opponent));
  Bitboard best = 0;
  int least = 65;
  for (Bitboard rest = kept; rest;) {
    alignas(64) uint64_t moves[8] = {};
    int count = 0;
    for (; rest && count < 8; rest &= rest - 1) moves[count++] = rest & (0 - rest);
    const __m512i move = _mm512_load_si512(moves);
    const __m512i flipped = flips(own_v, opponent_v, move);
    // The opponent's replies: its discs less the flipped ones, against ours with the move and the flips.
    alignas(64) uint64_t replies[8];
    _mm512_store_si512(replies, legal_moves(_mm512_xor_si512(opponent_v, flipped),
                                            _mm512_ternarylogic_epi64(own_v, flipped, move, 0xFE)));
    for (int k = 0; k < count; ++k) keep_fewest(moves[k], static_cast<int>(_mm_popcnt_u64(replies[k])), least, best);
  }
  return best;
}

} // namespace othello::cpu::avx512

GSDK_END_ISA
