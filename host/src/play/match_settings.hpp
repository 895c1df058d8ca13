// match_settings.hpp - what a match between two agents is made of, from `gsdk match` or a config's
// [match] table.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "gsdk/core/agents/agents.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "gsdk/core/runtime/work_part.hpp"

namespace gsdk::host {

struct MatchSettings {
  uint32_t games = 0;
  uint64_t seed = 1;
  // Agent A (index 0) is player 0 in even games and player 1 in odd ones; agent B the other side.
  std::array<std::string, 2> specs;          // as written (agent_spec.hpp)
  std::array<core::AgentSettings, 2> agents; // parsed from specs
  std::string record_file;                   // PGN-like game record; empty: none
  // Plies of uniformly random moves that open each pair of games (A with either colour from the same
  // position, as engine testers pair openings); 0: every game from the start position.
  uint32_t opening_plies = 0;
  // Games played at once, each by its own pair of agents on its own threads (and GPU streams, which
  // share the process's CUDA context, so their kernels overlap). Under playout budgets the games are
  // the same at any value; under time budgets the agents share the machine.
  uint32_t parallel = 1;
  const core::StopRequest* stop = nullptr; // when raised, the match ends at the next move
  // When the match is spread over processes: the blocks of its games (0-based rounds) this one plays; null: all.
  const core::WorkPart* part = nullptr;
};

inline constexpr uint32_t kMaxOpeningPlies = 1000;

inline constexpr uint32_t kMaxMatchGames = 1000000;

inline constexpr uint32_t kMaxParallelGames = 256;

} // namespace gsdk::host
