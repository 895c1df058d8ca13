// sequence_document.hpp - a move sequence from the initial state as the document a search saves: the game's own
// (gsdk.sequence_documents.v1, e.g. a snake file) when it has one, else {"format": "gsdk-moves", "game", "score",
// "moves", "move_names"}; and the checks every sequence a search reports passes first.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::host {

// The document of `moves` (a finished game) that scores `score`. Throws std::runtime_error when the game cannot
// write it.
nlohmann::json sequence_document(const core::GameInstance& game, const std::vector<uint32_t>& moves, int64_t score);

// Checks that `moves` replays through the per-state rules to `score`, and passes the game's own check when it has
// one. Throws std::runtime_error saying which failed.
void check_reported_sequence(const core::GameInstance& game, int64_t score, const std::vector<uint32_t>& moves);

} // namespace gsdk::host
