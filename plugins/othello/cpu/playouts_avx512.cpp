// playouts_avx512.cpp - eight random games at once, one per 64-bit lane of AVX-512 vectors.
//
// The board arithmetic (legal moves, flips, the move itself) runs on all lanes together; the choices
// that differ per game (the random draw, a pass, the end and the next playout into a free lane) are
// scalar. A lane's game is random_game move for move: the same stream, the same k-th kept square
// (pdep picks it in one instruction where the portable code walks the mask), the same passes.
#include <immintrin.h>

#include "bitboard_avx512.hpp"
#include "gsdk/isa.hpp"
#include "gsdk/playout_summary.hpp"
#include "playouts_cpu.hpp"
#include "rules/random_game.hpp"

GSDK_BEGIN_AVX512

namespace othello::cpu {

using namespace avx512;

namespace {

constexpr int kLanes = 8;

struct alignas(64) LaneBoards {
  uint64_t own[kLanes];
  uint64_t opponent[kLanes];
  uint64_t moves[kLanes];
  uint64_t move[kLanes]; // the chosen square's bit, 0 for a pass or an idle lane
};

} // namespace

void playouts_avx512(const Position& start, uint64_t seed, uint64_t first, uint64_t count, PlayoutPolicy policy,
                     gsdk_playout_summary& summary) {
  LaneBoards b{};
  gsdk::rng::SplitMix64 random[kLanes];
  uint64_t playout[kLanes];
  uint32_t side[kLanes];
  bool active[kLanes] = {};
  uint64_t next = first;
  const uint64_t end = first + count;
  // A lane refilled within a round gets its boards exchanged, as the round's closing swap undoes that.
  const auto start_lane = [&](int lane, bool before_swap) {
    active[lane] = next < end;
    if (!active[lane]) return;
    playout[lane] = next++;
    random[lane] = playout_stream(seed, playout[lane]);
    b.own[lane] = before_swap ? start.opponent : start.own;
    b.opponent[lane] = before_swap ? start.own : start.opponent;
    side[lane] = start.side;
  };
  for (int lane = 0; lane < kLanes; ++lane) start_lane(lane, false);

  for (;;) {
    bool any = false;
    for (int lane = 0; lane < kLanes; ++lane) any |= active[lane];
    if (!any) return;
    __m512i own = _mm512_load_si512(b.own), opponent = _mm512_load_si512(b.opponent);
    _mm512_store_si512(b.moves, legal_moves(own, opponent));
    for (int lane = 0; lane < kLanes; ++lane) {
      b.move[lane] = 0;
      if (!active[lane]) continue;
      const uint64_t moves = b.moves[lane];
      side[lane] ^= 1u; // a move or a pass: the other side is to move after this round
      if (moves == 0) {
        if (othello::legal_moves(b.opponent[lane], b.own[lane]) != 0) continue; // a pass
        const Position finished{b.own[lane], b.opponent[lane], side[lane] ^ 1u, 0};
        gsdk::record_playout(summary, final_score(finished), playout[lane], -64);
        start_lane(lane, true);
        continue;
      }
      // playout_square, with pdep for the k-th square and the candidates' replies counted eight at a time.
      const uint64_t draw = random[lane].next();
      uint64_t kept = policy_moves(moves, ~(b.own[lane] | b.opponent[lane]), policy);
      if (narrows_to_fewest_replies(policy, draw, kept))
        kept = avx512::fewest_replies(kept, b.own[lane], b.opponent[lane]);
      const auto k = gsdk::rng::scaled_index(draw, static_cast<uint32_t>(_mm_popcnt_u64(kept)));
      b.move[lane] = _pdep_u64(uint64_t{1} << k, kept);
    }
    own = _mm512_load_si512(b.own);
    opponent = _mm512_load_si512(b.opponent);
    const __m512i move = _mm512_load_si512(b.move);
    const __m512i flipped = flips(own, opponent, move);
    // The mover's discs become the opponent's of the next position: play() then pass(), per lane.
    _mm512_store_si512(b.own, _mm512_xor_si512(opponent, flipped));
    _mm512_store_si512(b.opponent, _mm512_or_si512(own, _mm512_or_si512(flipped, move)));
  }
}

} // namespace othello::cpu

GSDK_END_ISA
