// command_line.hpp - Boost.Program_options plumbing shared by the subcommands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "commands/commands.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::host {

namespace po = boost::program_options;

// Adds --help, --plugin-dir and --allow-unsafe-plugin-dirs to `options`.
void add_common_options(po::options_description& options);

// Adds --allow-unsafe-plugin-dirs (for commands that load plugins without add_common_options).
void add_plugin_trust_option(po::options_description& options);

// Whether plugins that other users could have changed are loaded anyway: --allow-unsafe-plugin-dirs, or
// GSDK_ALLOW_UNSAFE_PLUGINS=1 (another value than 0 or 1 draws a warning and is not taken as a yes).
PermissionCheck plugin_permission_check(const po::variables_map& vm);

// Parses; on --help prints usage and returns exit status 0; on a usage error prints it and returns 2.
// Otherwise returns nullopt and fills `vm`. While an OptionTableRecorder is alive (option_table.hpp), it only
// records the usage and `options` and returns 0. `hidden` options are parsed but not shown by --help (a
// positional list that stands for operands the help names already).
std::optional<int> parse_arguments(const Arguments& args, const std::string& usage, po::options_description& options,
                                   const po::positional_options_description& positional, po::variables_map& vm,
                                   const po::options_description* hidden = nullptr);

// A count as the user typed it: decimal digits only (at most nine), from min to max; nullopt otherwise.
std::optional<uint32_t> parse_count(const std::string& text, uint32_t min, uint32_t max);

// Loads plugins from the search path; reports refused plugins as warnings when `warn`.
PluginCatalog load_catalog(const po::variables_map& vm, bool warn);

} // namespace gsdk::host
