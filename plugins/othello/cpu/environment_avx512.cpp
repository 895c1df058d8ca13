// environment_avx512.cpp - othello's batched step and observations on AVX-512, eight games to a vector: a lane
// whose move is an ordinary square after which the opponent can move (nearly every step) is made, and its legal
// mask and observation planes written, by vector instructions (a 64-bit mask becomes 64 bytes in one); a lane that
// passes, ends its game, must pass next or holds a bad action goes through the one-game step, in game order.
#include <immintrin.h>

#include "bitboard_avx512.hpp"
#include "environment_cpu.hpp"
#include "gsdk/isa.hpp"
#include "rules/environment.hpp"

GSDK_BEGIN_AVX512

namespace othello::cpu {

namespace {

void store_byte_plane(uint64_t mask, uint8_t* out) {
  _mm512_storeu_si512(out, _mm512_maskz_set1_epi8(static_cast<__mmask64>(mask), 1));
}

} // namespace

void step_batch_avx512(Position* states, const uint32_t* actions, uint32_t count, Convention convention,
                       float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal, Position* final_states) {
  const __m512i one = _mm512_set1_epi64(1);
  for (uint32_t first = 0; first < count; first += 8) {
    const uint32_t lanes = count - first < 8 ? count - first : 8;
    alignas(64) uint64_t own[8] = {}, opponent[8] = {}, code[8];
    for (uint32_t i = 0; i < 8; ++i) {
      code[i] = kPass; // idle lanes pass, and so take the one-game path, which they never reach
      if (i >= lanes) continue;
      own[i] = states[first + i].own;
      opponent[i] = states[first + i].opponent;
      code[i] = actions[first + i];
    }
    const __m512i own_v = _mm512_load_si512(own), opponent_v = _mm512_load_si512(opponent);
    const __m512i code_v = _mm512_load_si512(code);
    const __m512i move = _mm512_sllv_epi64(one, code_v); // 0 for codes of 64 and above
    const __m512i flipped = avx512::flips(own_v, opponent_v, move);
    // The mover becomes the opponent: the new mover's discs less those turned, against the rest.
    const __m512i next_own = _mm512_xor_si512(opponent_v, flipped);
    const __m512i next_opponent = _mm512_ternarylogic_epi64(own_v, flipped, move, 0xFE);
    alignas(64) uint64_t next_moves[8], after_own[8], after_opponent[8];
    _mm512_store_si512(next_moves, avx512::legal_moves(next_own, next_opponent));
    _mm512_store_si512(after_own, next_own);
    _mm512_store_si512(after_opponent, next_opponent);
    const __mmask8 occupied = _mm512_test_epi64_mask(move, _mm512_or_si512(own_v, opponent_v));
    const __mmask8 turns = _mm512_test_epi64_mask(flipped, flipped);
    const __mmask8 replies = _mm512_test_epi64_mask(_mm512_load_si512(next_moves), _mm512_load_si512(next_moves));
    const __mmask8 ordinary = static_cast<__mmask8>(turns & ~occupied & replies);
    for (uint32_t i = 0; i < lanes; ++i) {
      const uint32_t k = first + i;
      if (!((ordinary >> i) & 1u)) {
        step_game(states, actions, k, convention, rewards, terminated, players, legal, final_states);
        continue;
      }
      Position& p = states[k];
      p.own = after_own[i];
      p.opponent = after_opponent[i];
      p.side ^= 1u;
      rewards[2 * size_t{k}] = 0.0f;
      rewards[2 * size_t{k} + 1] = 0.0f;
      terminated[k] = 0;
      players[k] = static_cast<int32_t>(p.side);
      uint8_t* row = legal + size_t{k} * kCodeCount;
      store_byte_plane(next_moves[i], row);
      row[kPass] = 0;
    }
  }
}

void fill_observations_avx512(const Position* states, uint32_t count, uint8_t* observations) {
  for (uint32_t k = 0; k < count; ++k) {
    store_byte_plane(states[k].own, observations + size_t{k} * kObservationBytes);
    store_byte_plane(states[k].opponent, observations + size_t{k} * kObservationBytes + 64);
  }
}

} // namespace othello::cpu

GSDK_END_ISA
