// board_text.hpp - connect_four positions as text, in two forms a person can type:
//
//   moves:    the columns played from the empty board, 1 (left) to 7, e.g. "4453"; "" is the empty board
//   diagram:  the six rows from the top, '/' between rows, 'X' (player 0, who moves first), 'O' or '.' per
//             cell from the left, e.g. "......./......./......./......./...O.../..OXX.." (4453 as a diagram)
//
// State text is always written as a diagram (a position can be reached by many move orders); both forms
// are read. Text that is not a position of the game is refused with a gsdk::PluginError quoting it and
// saying what is wrong.
#pragma once

#include <string>
#include <string_view>

#include "rules.hpp"

namespace connect_four {

std::string board_diagram(const State& s);

// The position `text` describes, in either form (a diagram has '/' in it). Throws gsdk::PluginError.
State parse_position(std::string_view text);

} // namespace connect_four
