// device_rules.hpp - connect_four's rules as the SDK's CUDA templates take them (gsdk::nested::PlayoutRules,
// gsdk/nested/nmcs_rules.hpp): the moves as a bit mask, play, the score, and the one playout of rules.hpp.
// The state is 16 bytes, so positions are the state itself, in registers (gsdk::nested::StatePositions).
// cuda/kernels.cu binds every CUDA table to templates over this object; tests/device_rules_test.cpp checks on
// the CPU that it plays exactly as the per-state table does.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/bit_moves.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/perft_rules.hpp"
#include "gsdk/nested/state_positions.hpp"
#include "rules.hpp"

namespace connect_four {

struct DeviceRules : gsdk::nested::StatePositions<State> {
  using Moves = gsdk::nested::BitMoves;                      // bit c: column c
  static constexpr const char* kOwner = "connect_four CUDA"; // names this plugin in device errors

  GSDK_HD Moves legal_moves(const State& s) const { return {legal_columns(s)}; }
  GSDK_HD void play(State& s, uint32_t column) const { connect_four::play(s, column); }
  GSDK_HD int64_t score(const State& s) const { return outcome(s); }
  template <typename Log> GSDK_HD void playout(State& s, uint64_t seed, uint64_t stream, Log log) const {
    play_out(s, seed, stream, log);
  }
};

// A mistake in the members above fails here, not deep inside a template.
static_assert(gsdk::nested::PlayoutRules<DeviceRules>, "the SDK's playout templates take the device rules");
static_assert(gsdk::nested::PerftRules<DeviceRules>, "the GPU perft template takes the device rules");

} // namespace connect_four
