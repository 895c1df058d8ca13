// test_chain_device_rules.hpp - test_chain's rules as the SDK's nested searches on the GPU take them
// (gsdk::nested::NrpaRules): a search keeps its set of used numbers in global memory (the state blob's word,
// or a word of scratch) and its chain's end in registers; a playout keeps the set in its one word of
// shared workspace. An NRPA step records the legal numbers and the one played; a move's code is its number,
// which is legal at many steps of one chain, so the adaptation keeps its deltas until the last step.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/bit_moves.hpp"
#include "gsdk/nested/strided_words.hpp"
#include "test_chain_rules.hpp"

namespace test_chain {

struct DeviceRules {
  using State = test_chain::State;
  using Moves = gsdk::nested::BitMoves;
  struct SearchPosition {
    uint64_t* used;
    Chain chain;
  };
  struct PlayoutPosition {
    gsdk::nested::StridedWords used; // word 0
    Chain chain;
  };
  struct Step {
    uint32_t legal;
    uint32_t move;
  };
  static constexpr const char* kOwner = "test_chain CUDA";
  static constexpr uint32_t kMaxMoves = kMaxNumbers;
  static constexpr bool kDistinctStepCodes = false;

  uint32_t numbers;

  GSDK_HD uint32_t max_game_length() const { return numbers; }
  GSDK_HD uint32_t workspace_words() const { return 1; }
  GSDK_HD uint32_t search_words() const { return 1; }
  GSDK_HD uint32_t code_count() const { return numbers; }

  GSDK_HD SearchPosition search_position(State& s) const { return {&s.used, s.chain}; }
  GSDK_HD SearchPosition copy_state(const State& s, uint64_t* words) const {
    words[0] = s.used;
    return {words, s.chain};
  }
  GSDK_HD SearchPosition copy_position(const SearchPosition& p, uint64_t* words) const {
    words[0] = *p.used;
    return {words, p.chain};
  }
  GSDK_HD PlayoutPosition load(const SearchPosition& p, gsdk::nested::StridedWords slot) const {
    slot[0] = static_cast<uint32_t>(*p.used);
    return {slot, p.chain};
  }
  GSDK_HD PlayoutPosition initial(gsdk::nested::StridedWords slot) const {
    slot[0] = 0;
    return {slot, Chain{0, 0, 0}};
  }

  GSDK_HD Moves legal_moves(const SearchPosition& p) const {
    return {legal_numbers(numbers, static_cast<uint32_t>(*p.used), p.chain.last)};
  }
  GSDK_HD Moves legal_moves(const PlayoutPosition& p) const {
    return {legal_numbers(numbers, p.used[0], p.chain.last)};
  }
  GSDK_HD void play(SearchPosition& p, uint32_t move) const {
    *p.used |= uint64_t{1} << move;
    extend(p.chain, move);
  }
  GSDK_HD void play(PlayoutPosition& p, uint32_t move) const {
    p.used[0] |= 1u << move;
    extend(p.chain, move);
  }
  template <typename P> GSDK_HD int64_t score(const P& p) const { return p.chain.sum; }
  template <typename Log> GSDK_HD void playout(PlayoutPosition& p, uint64_t seed, uint64_t stream, Log log) const {
    random_chain(numbers, p.used[0], p.chain, seed, stream, log);
  }

  GSDK_HD uint32_t move_codes(const PlayoutPosition&, Moves legal, uint32_t* codes) const {
    return codes_of(legal.bits, codes);
  }
  GSDK_HD Step step(const PlayoutPosition&, Moves legal, uint32_t move) const { return {legal.bits, move}; }
  GSDK_HD uint32_t step_codes(const Step& s, uint32_t* codes) const { return codes_of(s.legal, codes); }
  GSDK_HD uint32_t played_code(const Step& s) const { return s.move; }
  GSDK_HD uint32_t played_move(const Step& s) const { return s.move; }

private:
  // A move's code is the move itself (the number less one).
  GSDK_HD static uint32_t codes_of(uint32_t legal, uint32_t* codes) {
    uint32_t n = 0;
    for (Moves rest{legal}; !rest.empty(); rest = rest.without_first()) codes[n++] = rest.first();
    return n;
  }
};

} // namespace test_chain
