// environment.hpp - one game of othello's vectorised environment (gsdk.batched_steps.v1, gsdk.observations.v1):
// a step by move code (the end, the reset, the next mover's legal mask) and the observation planes. The CPU
// batched step and the CUDA kernels share these functions, so they agree by construction; the step makes the
// per-state table's moves (child() under the instance's convention), so it agrees with that table too.
//
// Move codes: a move's code is the move itself, the square 0..63 (a1 = 0, h8 = 63) or kPass = 64.
// Observation: uint8 (2, 8, 8); element [plane][row][column] is square 8 * row + column; plane 0 holds the
// discs of the player to move, plane 1 the opponent's (1 = a disc, 0 = none), the same view for black and white.
#pragma once

#include <cstdint>

#include "gsdk/environments/byte_planes.hpp"
#include "gsdk/environments/step_rewards.hpp"
#include "position.hpp"

namespace othello {

inline constexpr uint32_t kCodeCount = 65;
inline constexpr uint32_t kObservationBytes = 128;

// The legal squares of `moves`, else (none: the mover must pass) the pass, as bytes legal[0..kCodeCount).
GSDK_HD void write_legal_codes(Bitboard moves, uint8_t* legal) {
  gsdk::environments::write_byte_plane(moves, legal);
  legal[kPass] = moves == 0 ? 1 : 0;
}

// What one step did: the final score when it ended the game (black's result, as the per-state score), and the
// legal squares of the position it leaves (none: the mover must pass).
struct StepOutcome {
  bool ended;
  int32_t score;
  Bitboard moves;
};

// Plays the move whose code is `code` in the non-terminal p under convention c, and returns true; a game that
// ends is scored, its final position goes to *final_state (when given) and p becomes the start position. Returns
// false, p untouched, when no legal move has that code.
// (An empty square whose move turns nothing over is no move: the flips decide legality, no mobility needed.)
GSDK_HD bool step(Position& p, uint32_t code, Convention c, StepOutcome& outcome, Position* final_state = nullptr) {
  if (code == kPass) {
    if (legal_moves(p) != 0 || !opponent_can_move(p)) return false; // a square to play, or the game is over
  } else {
    if (code > kPass || ((p.own | p.opponent) & square_bit(code)) != 0) return false;
    const Bitboard flipped = flips(p.own, p.opponent, code);
    if (flipped == 0) return false;
    p.own |= flipped | square_bit(code);
    p.opponent ^= flipped;
  }
  pass(p);
  outcome = StepOutcome{false, 0, legal_moves(p)};
  if (outcome.moves != 0) return true;
  if (!opponent_can_move(p)) {
    outcome = StepOutcome{true, final_score(p), 0};
    if (final_state) *final_state = p;
    p = start_position();
  } else {
    settle(p, c); // free_pass makes a forced pass at once
  }
  outcome.moves = legal_moves(p);
  return true;
}

// The step's outputs for one game: rewards (two), terminated, the player to move and the legal codes.
GSDK_HD void write_step(const Position& p, const StepOutcome& outcome, float* rewards, uint8_t* terminated,
                        int32_t* player, uint8_t* legal) {
  gsdk::environments::write_step_rewards(outcome.ended, outcome.score, 2, rewards);
  *terminated = outcome.ended ? 1 : 0;
  *player = static_cast<int32_t>(p.side);
  write_legal_codes(outcome.moves, legal);
}

GSDK_HD void write_observation(const Position& p, uint8_t* observation) {
  gsdk::environments::write_byte_plane(p.own, observation);
  gsdk::environments::write_byte_plane(p.opponent, observation + 64);
}

} // namespace othello
