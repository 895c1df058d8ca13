// default_agent.hpp - the agent `gsdk gtp GAME` plays when no --agent is given: the strongest this machine
// supports for the game, at a default time per move (which a GTP clock then replaces). One function, so the
// choice can follow new agents.
#pragma once

#include <string>

#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::host {

// An agent spec (agent_spec.hpp): alpha-beta when the game has an evaluation and no chance nodes, else UCT on
// a usable GPU when the plugin has a CUDA playout table, else UCT with one tree per CPU thread.
std::string default_agent_spec(const core::PluginTables& plugin);

} // namespace gsdk::host
