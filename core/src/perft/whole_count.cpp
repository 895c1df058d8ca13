// whole_count.cpp - one uninterrupted CPU count of a perft subtree (whole_count.hpp).
#include "perft/whole_count.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::core {

namespace {

constexpr uint32_t kMessageSize = 2048;

} // namespace

uint128 count_whole(const GameInstance& game, bool plugin_table, const StateBlob& state, uint32_t depth) {
  if (!plugin_table) return generic_perft(game, state, depth);
  if (depth == 0) return 1;
  uint64_t leaves = 0;
  char error[kMessageSize] = {};
  const int32_t status =
      game.tables().cpu_perft->count(game.handle(), state.data(), depth, &leaves, error, kMessageSize);
  if (status != GSDK_OK)
    throw std::runtime_error(fmt::format("plugin '{}' ({}): {} count at depth {} failed (status {}): {}",
                                         game.tables().name(), game.tables().path, GSDK_TABLE_CPU_PERFT, depth, status,
                                         error));
  return leaves;
}

} // namespace gsdk::core
