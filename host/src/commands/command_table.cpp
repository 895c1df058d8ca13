// command_table.cpp - the table of gsdk's subcommands.
#include "commands/command_table.hpp"

#include <array>

namespace gsdk::host {

namespace {

const std::array kCommands = {
    CommandEntry{"list", "", "plugins, games, parameters, capabilities, CUDA devices", &command_list},
    CommandEntry{"run", "CONFIG.toml",
                 "run an experiment (--set key=value, --device, --threads, --out, --plot, --shard K/N)", &command_run,
                 true},
    CommandEntry{"merge", "SHARD.json...",
                 "the results of a run's N shards (`run --shard K/N`), as one process gives them", &command_merge},
    CommandEntry{"bench", "", "the standard benchmark over every plugin and device", &command_bench, true},
    CommandEntry{"replay", "RESULTS.json", "show a stored playout move by move (default: the best one)",
                 &command_replay},
    CommandEntry{"perft", "GAME POSITION DEPTH", "count the leaves of the move tree (--divide: per root move)",
                 &command_perft, true},
    CommandEntry{"match", "GAME", "two agents play games, colours alternating (--agent0, --agent1, --games)",
                 &command_match, true},
    CommandEntry{"gtp", "GAME", "a Go Text Protocol engine on stdin/stdout (--agent)", &command_gtp},
    CommandEntry{"check", "PLUGIN.so", "run the conformance suite on a plugin file (--param, --device, --json, --only)",
                 &command_check},
    CommandEntry{"new-plugin", "NAME", "a new plugin's source folder from a template (--template two-player|chance)",
                 &command_new_plugin},
    CommandEntry{"completion", "SHELL", "a shell completion script (bash) for gsdk's commands and options",
                 &command_completion},
    CommandEntry{"version", "", "print the version (also -V, --version; --json)", &command_version},
};

} // namespace

std::span<const CommandEntry> command_table() {
  return kCommands;
}

const CommandEntry* find_command(const std::string& name) {
  const std::string wanted = name == "-V" || name == "--version" ? "version" : name;
  for (const CommandEntry& c : kCommands)
    if (wanted == c.name) return &c;
  return nullptr;
}

std::string command_names() {
  std::string out;
  for (const CommandEntry& c : kCommands) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

} // namespace gsdk::host
