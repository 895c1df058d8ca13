// capability_tables.hpp - the capability tables a loaded plugin provides, by their ABI names (what
// `gsdk list` shows and what each conformance check needs), read from the tables bound at load time
// so that naming them never calls into the plugin again.
#pragma once

#include <string>
#include <vector>

#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::host {

struct CapabilityTable {
  const char* abi_name; // e.g. "gsdk.cpu_playouts.v1"
  const char* label;    // what it gives, for people: e.g. "CPU batch playouts"
  bool present;
};

// Every optional table of this ABI, in the header's order, each marked present or not.
std::vector<CapabilityTable> capability_tables(const core::PluginTables& tables);

// Whether the plugin provides the table named `abi_name` (the game table always; unknown names never).
bool has_table(const core::PluginTables& tables, const std::string& abi_name);

} // namespace gsdk::host
