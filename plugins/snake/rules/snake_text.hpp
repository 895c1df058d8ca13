// snake_text.hpp - snakes as text: the dimension and the moves from vertex 0, "d=5 moves 0 1 2 0 3",
// which says everything a state holds and is what a person would write down.
#pragma once

#include <string>
#include <string_view>

#include "snake_state.hpp"

namespace snake {

// "d=<dimension> moves <k0> <k1> ..." ("d=5 moves" before the first move).
std::string to_text(const State& s);

// Reads the form above (any whitespace between tokens) and plays the moves under rules from `empty` (the
// game's snake before its first move, which may have blocked sub-cubes). Throws
// std::invalid_argument naming the offending token, its place, and what was expected: a dimension other
// than rules.dimension, a move that is not a number in 0..d-1, or a move the rules forbid (and why).
State parse_text(std::string_view text, const Rules& rules, const State& empty);

} // namespace snake
