// rules.hpp - the rules of coin_runs, written once for every path that plays the game: the per-state
// table (tree search, tests), the CPU batch loop and the CUDA table (device_rules.hpp). Plain data
// and GSDK_HD functions only: no allocation, no exceptions, no virtual calls.
//
// A game flips a fair coin `flips` times; the score is the longest run of heads.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/rng/philox.hpp"

namespace coin_runs {

inline constexpr int kDefaultFlips = 100;
inline constexpr int kMaxFlips = 4096; // fits State's uint16_t fields; the exact distribution is O(flips^2)

// Moves (the outcomes of the chance node every non-terminal state is).
inline constexpr uint32_t kTails = 0;
inline constexpr uint32_t kHeads = 1;

// The whole state of a game: a POD blob the host copies, hashes and moves to a GPU as bytes, so it
// holds values only, never pointers.
struct State {
  uint16_t flips_done;
  uint16_t run;     // heads at the end of the flips so far
  uint16_t longest; // longest run of heads so far: the score once every flip is made
};

// Branch-free on purpose: flips are random, so a branch would be mispredicted half the time. With
// `if`/`?:` here GCC 12 branches and 100-flip playouts take ~520 ns instead of ~140 ns.
GSDK_HD void apply_flip(State& s, uint32_t move) {
  const uint32_t heads = 0u - static_cast<uint32_t>(move == kHeads); // all ones for heads, else 0
  const uint32_t run = (s.run + 1u) & heads;
  const uint32_t longest = s.longest;
  s.flips_done = static_cast<uint16_t>(s.flips_done + 1);
  s.run = static_cast<uint16_t>(run);
  s.longest = static_cast<uint16_t>(run > longest ? run : longest);
}

// Plays one playout from `s` to the end of a `flips`-flip game, in place, calling log(flip) after each flip
// (replay keeps them; the batch loop passes a callback that does nothing, which the compiler removes). The
// randomness is the stream (seed, playout) and nothing else: flip k after `s` is bit k % 64 of the stream's
// word k / 64. Every path plays this one function (the batch loop, replay, and the CUDA table through
// device_rules.hpp), so they cannot disagree.
template <typename Log> GSDK_HD void play_out(State& s, int flips, uint64_t seed, uint64_t playout, Log log) {
  gsdk::rng::PhiloxStream random(seed, playout);
  const int remaining = flips - s.flips_done;
  uint64_t word = 0;
  for (int k = 0; k < remaining; ++k) {
    if (k % 64 == 0) word = random.next_u64();
    const uint32_t flip = static_cast<uint32_t>(word >> (k % 64)) & 1u; // kHeads or kTails
    apply_flip(s, flip);
    log(flip);
  }
}

} // namespace coin_runs
