// whole_count.cpp - one uninterrupted CPU count of a perft subtree (whole_count.hpp).
#include "perft/whole_count.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::core {

namespace {} // namespace

uint128 count_whole(const GameInstance& game, bool plugin_table, const StateBlob& state, uint32_t depth) {
  if (!plugin_table) return generic_perft(game, state, depth);
  if (depth == 0) return 1;
  uint64_t leaves = 0;
  if (const auto failure = call_entry([&](char* error, uint32_t size) {
        return game.tables().cpu_perft->count(game.handle(), state.data(), depth, &leaves, error, size);
      }))
    throw std::runtime_error(fmt::format("plugin '{}' ({}): {} count at depth {} failed (status {}): {}",
                                         game.tables().name(), game.tables().path, GSDK_TABLE_CPU_PERFT, depth,
                                         failure->status, failure->message));
  return leaves;
}

} // namespace gsdk::core
