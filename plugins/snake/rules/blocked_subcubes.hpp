// blocked_subcubes.hpp - sub-cubes of the hypercube that a snake may not enter, for searches that grow a
// snake one part of the cube at a time (docs/perf/snake.md, "... growing the 10-cube's new half in a box").
// A sub-cube is written as the cube's vertices are, highest dimension first, one character a dimension:
// '0' or '1' fixes that bit, '*' leaves it free, so in dimension 10 "10********" is every vertex with bit 9
// set and bit 8 clear. A list separates its sub-cubes by commas.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "snake_state.hpp"

namespace snake {

struct Subcube {
  uint32_t fixed; // bit k: the pattern fixes dimension k
  uint32_t value; // the fixed bits' values; v is inside when (v & fixed) == value

  bool contains(uint32_t v) const { return (v & fixed) == value; }
};

// Reads a comma-separated list ("" or blanks: none). Throws std::invalid_argument naming the sub-cube at
// fault and what was expected: d characters each '0', '1' or '*', and not the start vertex 0.
std::vector<Subcube> parse_subcubes(std::string_view list, uint32_t dimension);

// Marks every vertex of the sub-cubes blocked in s (the empty snake), so no move can enter one.
void block_subcubes(State& s, const std::vector<Subcube>& subcubes);

} // namespace snake
