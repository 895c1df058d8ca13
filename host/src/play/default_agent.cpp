// default_agent.cpp - choosing the default agent of `gsdk gtp` (default_agent.hpp).
#include "play/default_agent.hpp"

#include <fmt/format.h>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::host {

namespace {

// A GUI's game without a clock: a second a move keeps it responsive.
constexpr double kDefaultSeconds = 1;

} // namespace

std::string default_agent_spec(const core::PluginTables& plugin) {
  // Alpha-beta on the game's evaluation beat every UCT agent in Othello (docs/perf/othello.md): a game that gives
  // an evaluation gets it.
  if (plugin.evaluation && !(plugin.game->flags & GSDK_GAME_FLAG_CHANCE))
    return fmt::format("alphabeta:time={}", kDefaultSeconds);
  std::string why_no_gpu;
  if (plugin.cuda_playouts && !core::cuda_devices(why_no_gpu).empty())
    return fmt::format("uct:time={},device=cuda", kDefaultSeconds);
  return fmt::format("uct:time={},roots={}", kDefaultSeconds, core::available_cpu_threads());
}

} // namespace gsdk::host
