// device_rules.hpp - othello's rules as the SDK's CUDA templates take them (gsdk::nested::PlayoutRules): the legal
// squares as a 64-bit set with the pass as its own move, the per-state table's moves and scores under the
// instance's convention, and the stepped playout (rules/stepped_game.hpp), the GPU's form of random_game. A position
// is the 24-byte Position itself, in registers (gsdk::nested::StatePositions). cuda/playouts.cu binds the CUDA
// playouts table to the SDK's template over this object; tests/device_rules_test.cpp checks it against the
// per-state table and replay on the CPU.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/state_positions.hpp"
#include "rules/position.hpp"
#include "rules/stepped_game.hpp"

namespace othello::cuda {

struct DeviceRules : gsdk::nested::StatePositions<Position> {
  // The legal squares in ascending order, or the pass alone (a move set of move_set()).
  struct Moves {
    Bitboard squares;
    bool pass;
    GSDK_HD bool empty() const { return squares == 0 && !pass; }
    GSDK_HD uint32_t first() const { return squares != 0 ? lowest_square(squares) : kPass; }
    GSDK_HD Moves without_first() const { return {squares & (squares - 1), false}; }
  };
  static constexpr const char* kOwner = "othello CUDA"; // names the plugin in device errors

  Convention convention;
  PlayoutPolicy policy;

  GSDK_HD Moves legal_moves(const Position& p) const {
    const MoveSet set = move_set(p, convention);
    return {set.squares, set.pass_only};
  }
  GSDK_HD void play(Position& p, uint32_t move) const { p = child(p, move, convention); }
  GSDK_HD int64_t score(const Position& p) const { return state_score(p); }
  template <typename Log> GSDK_HD void playout(Position& p, uint64_t seed, uint64_t stream, Log log) const {
    stepped_game_in_place(p, seed, stream, policy, log);
  }
};

static_assert(gsdk::nested::PlayoutRules<DeviceRules>, "the SDK's playout templates take the device rules");

} // namespace othello::cuda
