// search_starts.hpp - the warm starts of one-player searches (NMCS, the beam): move lists played from the initial
// state before a search begins, each checked to be a legal game that has not ended. Internal to the core.
#pragma once

#include <cstdint>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

struct SearchStarts {
  std::vector<StateBlob> states;
  std::vector<std::vector<uint32_t>> moves;
  std::vector<uint32_t> index; // each one's place in the given starts, by which the run reports it
  uint32_t skipped = 0;        // finished starts left out (skip_finished)
  uint32_t of(uint32_t search) const { return search % static_cast<uint32_t>(states.size()); }
};

// The state `moves` lead to from the initial state; throws std::invalid_argument naming the first move that is not
// legal or comes after the game ended.
StateBlob play_legal_moves(const GameInstance& game, const std::vector<uint32_t>& moves);

// The given starts (the initial state when there are none), each checked: one whose moves are not a legal game of
// `game` is refused, and so is one that ends the game, unless skip_finished leaves it out. Throws StartMovesError
// naming the start (when there are several), the move and why.
SearchStarts search_starts(const GameInstance& game, const std::vector<std::vector<uint32_t>>& given,
                           bool skip_finished);

} // namespace gsdk::core
