// device_rules.hpp - connect_four's rules as the SDK's templates take them: for playouts and perft
// (gsdk::nested::PlayoutRules, gsdk/nested/nmcs_rules.hpp) the moves as a bit mask, play, the score and the one
// playout of rules.hpp; for gsdk.VectorEnv (gsdk::environments::EnvironmentRules) the moves by code, the
// legal codes and the observation.
// The state is 16 bytes, so positions are the state itself, in registers (gsdk::nested::StatePositions).
// cuda/kernels.cu binds every CUDA table to templates over this object; tests/device_rules_test.cpp checks on
// the CPU that it plays exactly as the per-state table does.
#pragma once

#include <cstdint>

#include "gsdk/environments/environment_rules.hpp"
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

  // The vectorised environment: a move's code is its column (gsdk.move_codes.v1).
  static constexpr uint32_t kCodeCount = kColumns;
  static constexpr uint32_t kPlayerCount = 2;
  static constexpr uint32_t kObservationBytes = 2 * kCells; // uint8 (2, 6, 7)

  GSDK_HD State initial_state() const { return State{{0, 0}}; }
  GSDK_HD bool play_code(State& s, uint32_t code) const {
    if (code >= kColumns || ((legal_columns(s) >> code) & 1u) == 0) return false;
    connect_four::play(s, code);
    return true;
  }
  GSDK_HD bool ended(const State& s) const { return game_over(s); }
  GSDK_HD int32_t player_to_move(const State& s) const { return static_cast<int32_t>(connect_four::player_to_move(s)); }
  GSDK_HD void write_legal_codes(const State& s, uint8_t* row) const {
    const uint32_t columns = legal_columns(s);
    for (uint32_t c = 0; c < kColumns; ++c) row[c] = static_cast<uint8_t>((columns >> c) & 1u);
  }
  // Plane 0 the discs of the player to move, plane 1 the opponent's (the same view for both players); element
  // [plane][row][column], row 0 the bottom row, 1 for a disc.
  GSDK_HD void write_observation(const State& s, uint8_t* out) const {
    const bool first = connect_four::player_to_move(s) == 0;
    const uint64_t own = first ? s.discs[0] : s.discs[1], other = first ? s.discs[1] : s.discs[0];
    for (uint32_t row = 0; row < kRows; ++row)
      for (uint32_t column = 0; column < kColumns; ++column) {
        const uint32_t bit = kColumnBits * column + row, cell = kColumns * row + column;
        out[cell] = static_cast<uint8_t>((own >> bit) & 1u);
        out[kCells + cell] = static_cast<uint8_t>((other >> bit) & 1u);
      }
  }
};

// A mistake in the members above fails here, not deep inside a template.
static_assert(gsdk::nested::PlayoutRules<DeviceRules>, "the SDK's playout templates take the device rules");
static_assert(gsdk::nested::PerftRules<DeviceRules>, "the GPU perft template takes the device rules");
static_assert(gsdk::environments::EnvironmentRules<DeviceRules>, "the batched-step templates take the device rules");

} // namespace connect_four
