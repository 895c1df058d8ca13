// test_chain_rules.hpp - the divisor chain puzzle of test_chain.so, for host and device: write a chain of
// distinct numbers from 1..N in which each number divides or is a multiple of the one before it; the score is
// the chain's sum. A move is the next number less one (0..N-1); any number may start the chain. A small
// deterministic one-player game whose moves' codes (the number) recur along a chain, so it exercises the
// nested searches' paths that snake, whose codes never recur, does not (tests/search/gpu_nested_search_test.cpp).
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"
#include "gsdk/rng/philox.hpp"

namespace test_chain {

inline constexpr uint32_t kMinNumbers = 2;
inline constexpr uint32_t kMaxNumbers = 32; // a move set is one 32-bit mask

// The chain's end in registers; the set of numbers used is kept where the caller chooses.
struct Chain {
  uint32_t last;   // the last number, 0 while the chain is empty
  uint32_t length; // numbers in the chain
  uint32_t sum;    // their sum: the score
};

struct State {
  uint64_t used; // bit j: number j + 1 is in the chain (a 64-bit word, as the searches copy positions)
  Chain chain;
  uint32_t reserved;            // always 0
  uint8_t numbers[kMaxNumbers]; // the chain in order (its text), zero past its length
};

// Bit j set when number j + 1 may come next.
GSDK_HD uint32_t legal_numbers(uint32_t numbers, uint32_t used, uint32_t last) {
  uint32_t legal = 0;
  for (uint32_t n = 1; n <= numbers; ++n)
    if (((used >> (n - 1)) & 1u) == 0 && (last == 0 || n % last == 0 || last % n == 0)) legal |= 1u << (n - 1);
  return legal;
}

// Appends number move + 1 (a legal move) to the chain's end; its caller marks the number used.
GSDK_HD void extend(Chain& chain, uint32_t move) {
  chain.last = move + 1;
  ++chain.length;
  chain.sum += move + 1;
}

// Index of the k-th (from 0) set bit of mask, which has more than k set bits.
GSDK_HD uint32_t nth_set_bit(uint32_t mask, uint32_t k) {
  for (; k > 0; --k) mask &= mask - 1;
  uint32_t index = 0;
  for (; (mask & 1u) == 0; mask >>= 1) ++index;
  return index;
}

struct NoMoveLog {
  GSDK_HD void operator()(uint32_t) const {}
};

// The playout every engine plays (the CPU batch table, replays, the GPU searches): uniform among the legal
// moves, one draw below(count) of the stream (seed, playout) per move with more than one choice.
template <typename MoveLog = NoMoveLog>
GSDK_HD void random_chain(uint32_t numbers, uint32_t& used, Chain& chain, uint64_t seed, uint64_t playout,
                          MoveLog log = MoveLog{}) {
  gsdk::rng::PhiloxStream random(seed, playout);
  for (uint32_t legal = legal_numbers(numbers, used, chain.last); legal != 0;
       legal = legal_numbers(numbers, used, chain.last)) {
    const auto count = static_cast<uint32_t>(gsdk::bits::popcount32(legal));
    const uint32_t move = nth_set_bit(legal, count == 1 ? 0 : random.below(count));
    used |= 1u << move;
    extend(chain, move);
    log(move);
  }
}

// The state after `move` (legal), its text's number list included.
GSDK_HD void play(State& s, uint32_t move) {
  s.numbers[s.chain.length] = static_cast<uint8_t>(move + 1);
  s.used |= uint64_t{1} << move;
  extend(s.chain, move);
}

} // namespace test_chain
