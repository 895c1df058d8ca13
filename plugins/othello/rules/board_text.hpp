// board_text.hpp - Othello positions and moves as text: 64 board characters and the side to move
// (the form Edax, GGS and most tools exchange), moves as "d3" or "pass".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "position.hpp"

namespace othello {

// "<64 squares a1..h1, a2..h2, ..., h8> <side>": X black, O white, - empty; side X or O.
std::string to_text(const Position& p);

// Reads the form above, also accepting '*', 'x', 'B', 'b' for black, 'o', 'W', 'w' for white, '.' and
// '_' for empty, whitespace anywhere between squares, and the side as X, O, B, W, black or white; or
// "start". Throws std::invalid_argument naming the offending character or square and what was
// expected. Rejects positions whose four centre squares are not all occupied (no game reaches them).
Position parse_text(std::string_view text);

// "a1".."h8" or "pass".
std::string move_name(uint32_t move);

// The move code of a name as above (case-insensitive), or nothing.
std::optional<uint32_t> parse_move_name(std::string_view name);

} // namespace othello
