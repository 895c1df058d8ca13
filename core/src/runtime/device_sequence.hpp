// device_sequence.hpp - what the device searchers (NMCS level 1, NRPA) share when they read results back:
// search i's best sequence out of the moves buffer (max_moves entries per search), checked against the
// game's bound so that a kernel's inconsistent count is an error, not a read past the buffer.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

inline void copy_device_sequence(const GameInstance& game, const char* searches, size_t i, uint32_t move_count,
                                 const uint32_t* moves, uint32_t max_moves, std::vector<uint32_t>& out) {
  if (move_count > max_moves)
    throw std::runtime_error(fmt::format("{} CUDA {} search {} reported {} moves, more than the game's bound of {} "
                                         "(device result inconsistent)",
                                         game.game().name, searches, i, move_count, max_moves));
  const uint32_t* sequence = moves + i * max_moves;
  out.assign(sequence, sequence + move_count);
}

} // namespace gsdk::core
