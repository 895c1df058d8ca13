// near_miss.hpp - "did you mean" for a name the user mistyped (a command, an option, a game, a config key, an agent):
// the known names closest to what was typed, when close enough to be a slip of the keyboard.
#pragma once

#include <string>
#include <vector>

namespace gsdk::host {

// The candidates nearest to `typed` (fewest single-character insertions, deletions, substitutions and swaps of
// neighbours), at most a third of its length away (one edit for short names); ties kept in their given order.
// None when nothing is that close.
std::vector<std::string> near_misses(const std::string& typed, const std::vector<std::string>& candidates);

// " (did you mean 'count'?)", " (did you mean 'uct' or 'ucb'?)", or "" when there is no near miss: to follow the
// quoted name in a message.
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates);

} // namespace gsdk::host
