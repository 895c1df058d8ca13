// state_checks.hpp - which State blobs are connect_four positions. Start states reach the playout tables as
// raw bytes, so they get the cheap checks of the board's structure; text typed by a person gets those and
// the full check that some game reaches it.
#pragma once

#include <string>

#include "rules.hpp"

namespace connect_four {

// Why `s` is not a position a game can show (discs off the board or on both sides of one cell, a disc
// above an empty cell, disc counts that do not alternate, four in a row for the wrong player), or "".
std::string structure_problem(const State& s);

// Whether some sequence of legal moves from the empty board ends in `s`, whose structure is sound. Besides
// the structure, this rules out positions such as a lone column of O under X: X moves first but could not
// have played there.
bool reachable(const State& s);

} // namespace connect_four
