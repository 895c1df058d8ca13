// vector_env_tables.hpp - what othello_vector_env measures: the linked plugin's tables for vectorised environments
// (the C tables a VectorEnv calls), an instance with the default parameters, and the cheap action choice (a legal
// move's code drawn from the position itself, host or device).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/rng/splitmix64.hpp"
#include "rules/environment.hpp"

extern "C" int32_t gsdk_negotiate(const gsdk_negotiation*, gsdk_plugin_info*, char*, uint32_t);

namespace othello::bench {

struct VectorEnvTables {
  const gsdk_game* game = nullptr;
  const gsdk_batched_steps* steps = nullptr;
  const gsdk_observations* observations = nullptr;
  gsdk_game_instance* instance = nullptr;
};

inline VectorEnvTables vector_env_tables() {
  gsdk_negotiation request{{GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR, GSDK_ABI_MAJOR, nullptr};
  gsdk_plugin_info info{};
  info.header = {GSDK_TYPE_PLUGIN_INFO, sizeof info};
  char error[256] = {};
  if (gsdk_negotiate(&request, &info, error, sizeof error) != GSDK_OK) throw std::runtime_error(error);
  VectorEnvTables t;
  t.game = static_cast<const gsdk_game*>(info.get_proc(GSDK_TABLE_GAME));
  t.steps = static_cast<const gsdk_batched_steps*>(info.get_proc(GSDK_TABLE_BATCHED_STEPS));
  t.observations = static_cast<const gsdk_observations*>(info.get_proc(GSDK_TABLE_OBSERVATIONS));
  if (!t.game || !t.steps || !t.observations) throw std::runtime_error("othello lacks the vectorised-environment tables");
  std::vector<gsdk_param_value> values;
  for (uint32_t k = 0; k < t.game->param_count; ++k) {
    const gsdk_param_desc& d = t.game->params[k];
    values.push_back({d.name, d.type, 0, d.default_int, d.default_real, d.default_string});
  }
  if (t.game->create(values.data(), static_cast<uint32_t>(values.size()), &t.instance, error, sizeof error) != GSDK_OK)
    throw std::runtime_error(error);
  return t;
}

// A legal move's code of the live position p, drawn with `draw`.
GSDK_HD uint32_t drawn_code(const Position& p, uint64_t draw) {
  const Bitboard moves = legal_moves(p);
  if (moves == 0) return kPass;
  return nth_square(moves, static_cast<uint32_t>(draw % static_cast<uint64_t>(gsdk::bits::popcount64(moves))));
}

} // namespace othello::bench
