// device_rules.hpp - coin_runs' rules as the SDK's CUDA templates take them (gsdk::nested::PlayoutRules,
// gsdk/nested/nmcs_rules.hpp): the two flips as a bit mask, a flip, the score and the one playout of rules.hpp.
// The state is 6 bytes, so positions are the state itself, in registers (gsdk::nested::StatePositions).
// cuda/kernels.cu binds the CUDA playouts table to the SDK's template over this object; tests/game_test.cpp
// checks on the CPU that it plays exactly as the per-state table and replay do.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/bit_moves.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/state_positions.hpp"
#include "rules.hpp"

namespace coin_runs {

struct DeviceRules : gsdk::nested::StatePositions<State> {
  using Moves = gsdk::nested::BitMoves;                   // bit 0: tails, bit 1: heads, as legal_moves lists them
  static constexpr const char* kOwner = "coin_runs CUDA"; // names this plugin in device errors

  int flips; // the game's parameter

  GSDK_HD Moves legal_moves(const State& s) const { return {s.flips_done < flips ? 3u : 0u}; }
  GSDK_HD void play(State& s, uint32_t flip) const { apply_flip(s, flip); }
  GSDK_HD int64_t score(const State& s) const { return s.longest; }
  template <typename Log> GSDK_HD void playout(State& s, uint64_t seed, uint64_t stream, Log log) const {
    play_out(s, flips, seed, stream, log);
  }
};

// A mistake in the members above fails here, not deep inside a template.
static_assert(gsdk::nested::PlayoutRules<DeviceRules>, "the SDK's playout templates take the device rules");

} // namespace coin_runs
