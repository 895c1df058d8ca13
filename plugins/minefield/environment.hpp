// environment.hpp - the minefield's transition rule for the Q-learning trainers, on host and device.
//
// Actions: 0 right, 1 down, 2 left, 3 up; a move into a wall stays put. Stepping onto a mine pays -1,
// onto the flag +1, and either ends the agent's episode; any other move pays 0.
#pragma once

#include <cstdint>

#include "board.hpp"
#include "gsdk/hd.hpp"
#include "gsdk/qlearning/semantics.hpp"

namespace minefield {

inline constexpr uint32_t kActions = 4;
inline constexpr const char* kActionNames[kActions] = {"right", "down", "left", "up"};

struct Environment {
  uint32_t size;
  uint32_t agents;
  uint32_t limit;
  const uint8_t* cells; // host or device memory, whichever side runs step

  GSDK_HD uint32_t state_count() const { return size * size; }
  GSDK_HD uint32_t action_count() const { return kActions; }
  GSDK_HD uint32_t agent_count() const { return agents; }
  GSDK_HD uint32_t step_limit() const { return limit; }

  GSDK_HD uint32_t neighbour(uint32_t cell, uint32_t action) const {
    const uint32_t column = cell % size;
    switch (action) {
    case 0: return column + 1 < size ? cell + 1 : cell;
    case 1: return cell + size < size * size ? cell + size : cell;
    case 2: return column > 0 ? cell - 1 : cell;
    default: return cell >= size ? cell - size : cell;
    }
  }

  GSDK_HD gsdk::qlearning::Transition step(uint32_t cell, uint32_t action) const {
    const uint32_t next = neighbour(cell, action);
    const uint8_t kind = cells[next];
    return {next, kind == kMine ? -1.0f : kind == kFlag ? 1.0f : 0.0f, kind != kEmpty};
  }
};

} // namespace minefield
