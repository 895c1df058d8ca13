// search_starts.cpp - the warm starts of one-player searches, checked (search_starts.hpp).
#include "nested/search_starts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::core {

namespace {

// Where `start_moves` lead, which must be a legal game. `which` names the start in errors when there are several.
StateBlob start_state(const GameInstance& game, const std::vector<uint32_t>& start_moves, const std::string& which) {
  try {
    return play_legal_moves(game, start_moves);
  } catch (const std::invalid_argument& e) {
    throw StartMovesError(
        fmt::format("{}the start moves are not a game of '{}': {}", which, game.game().name, e.what()));
  }
}

} // namespace

StateBlob play_legal_moves(const GameInstance& game, const std::vector<uint32_t>& moves) {
  StateBlob state = game.initial_state();
  std::vector<uint32_t> legal(game.max_moves());
  for (size_t i = 0; i < moves.size(); ++i) {
    if (game.current_player(state) != 0)
      throw std::invalid_argument(fmt::format("move {} ({}) comes after the game ended", i, moves[i]));
    const uint32_t n = game.checked_legal_moves(state, legal);
    if (std::find(legal.begin(), legal.begin() + n, moves[i]) == legal.begin() + n)
      throw std::invalid_argument(fmt::format("move {} ({}) is not legal", i, moves[i]));
    game.apply_move(state, moves[i]);
  }
  return state;
}

SearchStarts search_starts(const GameInstance& game, const std::vector<std::vector<uint32_t>>& given_starts,
                           bool skip_finished) {
  const std::vector<std::vector<uint32_t>> initial_only(1);
  const std::vector<std::vector<uint32_t>>& given = given_starts.empty() ? initial_only : given_starts;
  const size_t n = given.size();
  SearchStarts starts;
  for (size_t i = 0; i < n; ++i) {
    const std::string which = n > 1 ? fmt::format("start {} of {}: ", i, n) : std::string();
    StateBlob state = start_state(game, given[i], which);
    if (!given[i].empty() && game.current_player(state) == GSDK_PLAYER_TERMINAL) {
      if (skip_finished) {
        ++starts.skipped;
        continue;
      }
      throw StartMovesError(
          fmt::format("{}the {} start moves end the game: there is nothing left to search", which, given[i].size()));
    }
    starts.states.push_back(std::move(state));
    starts.moves.push_back(given[i]);
    starts.index.push_back(static_cast<uint32_t>(i));
  }
  if (starts.states.empty())
    throw StartMovesError(fmt::format("every one of the {} starts ends the game: there is nothing left to search", n));
  return starts;
}

} // namespace gsdk::core
