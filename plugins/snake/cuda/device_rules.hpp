// device_rules.hpp - snake's rules as the SDK's nested searches on the GPU take them (gsdk::nested::NrpaRules,
// which includes NmcsRules): how a search keeps its snake and what a step of an NRPA sequence records.
//  - A search's own snake stays in global memory as the state's 64-bit bitset words (read once per child,
//    written once per step), its head, length and dimensions used in registers (a Walk).
//  - A playout runs in the thread's workspace in shared memory, the bitset as 32-bit interleaved words
//    (strided_bits.hpp), where every move reads and writes: this halves the shared memory a thread needs
//    against keeping the search's snake there too, and so doubles the threads an SM holds in large cubes.
//  - Legal moves are a mask of dimensions (gsdk::nested::BitMoves).
//  - An NRPA step is one word: head vertex (bits 0-13), legal dimensions (14-27), dimension played (28-31);
//    its codes (rules.hpp's nrpa_code) need no replay. A code names its head vertex, which a snake visits
//    once, so codes never repeat along a sequence and the adaptation runs in place.
// The playout is random_snake, the one the CPU batch table plays, so core's CPU searches and these agree.
// NRPA's playouts start in the whole cube: the plugin refuses GPU NRPA with blocked sub-cubes.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/bit_moves.hpp"
#include "gsdk/nested/strided_words.hpp"
#include "rules/random_snake.hpp"
#include "rules/snake_state.hpp"
#include "strided_bits.hpp"

namespace snake::cuda {

struct DeviceRules {
  using State = snake::State;
  using Moves = gsdk::nested::BitMoves;
  using Step = uint32_t;
  struct SearchPosition {
    WordBits bits;
    Walk walk;
  };
  struct PlayoutPosition {
    StridedBits bits;
    Walk walk;
  };
  static constexpr const char* kOwner = "snake CUDA";
  static constexpr uint32_t kMaxMoves = kMaxDimension;
  static constexpr bool kDistinctStepCodes = true;

  Rules rules;
  Policy policy;
  uint32_t words32; // of a playout's bitset
  uint32_t words64; // of a search's bitset

  GSDK_HD uint32_t max_game_length() const { return length_bound(rules.dimension); }
  GSDK_HD uint32_t workspace_words() const { return words32; }
  GSDK_HD uint32_t search_words() const { return words64; }
  GSDK_HD uint32_t code_count() const { return nrpa_code_count(rules); }

  GSDK_HD SearchPosition search_position(State& s) const { return {WordBits{s.blocked}, walk_of(s)}; }
  GSDK_HD SearchPosition copy_state(const State& s, uint64_t* words) const {
    for (uint32_t w = 0; w < words64; ++w) words[w] = s.blocked[w];
    return {WordBits{words}, walk_of(s)};
  }
  GSDK_HD SearchPosition copy_position(const SearchPosition& p, uint64_t* words) const {
    for (uint32_t w = 0; w < words64; ++w) words[w] = p.bits.words[w];
    return {WordBits{words}, p.walk};
  }
  GSDK_HD PlayoutPosition load(const SearchPosition& p, gsdk::nested::StridedWords slot) const {
    for (uint32_t w = 0; w < words32; ++w) slot[w] = static_cast<uint32_t>(p.bits.words[w / 2] >> (32 * (w % 2)));
    return {StridedBits{slot.word0, slot.stride}, p.walk};
  }
  GSDK_HD PlayoutPosition initial(gsdk::nested::StridedWords slot) const {
    for (uint32_t w = 0; w < words32; ++w) slot[w] = 0;
    return {StridedBits{slot.word0, slot.stride}, Walk{0, 0, 0}};
  }

  template <typename P> GSDK_HD Moves legal_moves(const P& p) const {
    return {legal_dimensions(rules, p.bits, p.walk)};
  }
  template <typename P> GSDK_HD void play(P& p, uint32_t k) const { advance(rules, p.bits, p.walk, k); }
  template <typename P> GSDK_HD int64_t score(const P& p) const { return p.walk.length; }
  template <typename Log> GSDK_HD void playout(PlayoutPosition& p, uint64_t seed, uint64_t stream, Log log) const {
    random_snake(rules, policy, p.bits, p.walk, seed, stream, log);
  }

  GSDK_HD uint32_t move_codes(const PlayoutPosition& p, Moves legal, uint32_t* codes) const {
    return codes_of(p.walk.head, legal.bits, codes);
  }
  GSDK_HD Step step(const PlayoutPosition& p, Moves legal, uint32_t k) const {
    return p.walk.head | legal.bits << kFieldBits | k << (2 * kFieldBits);
  }
  GSDK_HD uint32_t step_codes(Step s, uint32_t* codes) const {
    return codes_of(s & kFieldMask, (s >> kFieldBits) & kFieldMask, codes);
  }
  GSDK_HD uint32_t played_code(Step s) const { return nrpa_code(rules, s & kFieldMask, played_move(s)); }
  GSDK_HD uint32_t played_move(Step s) const { return s >> (2 * kFieldBits); }

private:
  static constexpr uint32_t kFieldBits = 14;
  static constexpr uint32_t kFieldMask = (1u << kFieldBits) - 1;

  // The codes of the legal dimensions at `head`, k ascending as legal_moves lists them.
  GSDK_HD uint32_t codes_of(uint32_t head, uint32_t legal, uint32_t* codes) const {
    uint32_t n = 0;
    for (uint32_t rest = legal; rest; rest &= rest - 1) codes[n++] = nrpa_code(rules, head, lowest_bit(rest));
    return n;
  }
};

// The device rules of a game of `rules` whose playouts follow `policy`.
inline DeviceRules device_rules(const Rules& rules, Policy policy) {
  return {rules, policy, words32(rules.dimension), words64(rules.dimension)};
}

} // namespace snake::cuda
