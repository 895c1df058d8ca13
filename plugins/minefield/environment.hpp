// environment.hpp - the minefield's transition rule for the Q-learning trainers, on host and device.
//
// Actions: 0 right, 1 down, 2 left, 3 up; a move into a wall stays put. Stepping onto a mine pays -1,
// onto the flag +1, and either ends the agent's episode; any other move pays 0.
#pragma once

#include <cstdint>
#include <vector>

#include "board.hpp"
#include "gsdk/hd.hpp"
#include "gsdk/qlearning/semantics.hpp"

namespace minefield {

inline constexpr uint32_t kActions = 4;
inline constexpr const char* kActionNames[kActions] = {"right", "down", "left", "up"};

// A cell's byte for the step rule: its Cell kind in bits 0-1 and, in bit 2 + action, a wall that way.
inline constexpr uint8_t kKindBits = 3;
GSDK_HD constexpr uint8_t wall_bit(uint32_t action) { return static_cast<uint8_t>(4u << action); }

struct Environment {
  uint32_t size;
  uint32_t agents;
  uint32_t limit;
  const uint8_t* cells; // encoded as above; host or device memory, whichever side runs step

  GSDK_HD uint32_t state_count() const { return size * size; }
  GSDK_HD uint32_t action_count() const { return kActions; }
  GSDK_HD uint32_t agent_count() const { return agents; }
  GSDK_HD uint32_t step_limit() const { return limit; }

  // Walls are looked up rather than derived from cell % size (no division), and the move is arithmetic
  // (random actions would make branches a coin flip for the CPU's predictor).
  GSDK_HD uint32_t neighbour(uint32_t cell, uint32_t action) const {
    const uint32_t stride = 1u + (size - 1u) * (action & 1u); // down and up move a row, right and left a column
    const uint32_t negate = 0u - ((action >> 1) & 1u);        // all ones for left and up
    const uint32_t moved = cell + ((stride ^ negate) - negate);
    return (cells[cell] & wall_bit(action)) ? cell : moved;
  }

  GSDK_HD gsdk::qlearning::Transition step(uint32_t cell, uint32_t action) const {
    const uint32_t next = neighbour(cell, action);
    const uint8_t kind = cells[next] & kKindBits;
    return {next, kind == kMine ? -1.0f : kind == kFlag ? 1.0f : 0.0f, kind != kEmpty};
  }
};

// One agent's move in a vectorised environment (gsdk.batched_steps.v1), on host and device: its cell and step count
// after `action`, and whether that ends its episode, on a mine (score -1), the flag (+1) or at the step limit (0),
// the per-state table's end and score.
struct WalkOutcome {
  bool ended;
  int32_t score;
};

GSDK_HD WalkOutcome walk(const Environment& environment, uint32_t& cell, uint32_t& steps, uint32_t action) {
  cell = environment.neighbour(cell, action);
  ++steps;
  const uint8_t kind = environment.cells[cell] & kKindBits;
  const int32_t score = kind == kMine ? -1 : kind == kFlag ? 1 : 0;
  return {kind != kEmpty || steps >= environment.limit, score};
}

// The step rule's bytes for a board.
std::vector<uint8_t> encode_cells(const Board& board);

} // namespace minefield
