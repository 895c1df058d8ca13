// capability_tables.cpp - the plugin's optional tables by ABI name, in the order of core's table list.
#include "conformance/capability_tables.hpp"

namespace gsdk::host {

std::vector<CapabilityTable> capability_tables(const core::PluginTables& t) {
  std::vector<CapabilityTable> tables;
  for (const core::TableDescriptor& d : core::optional_tables())
    tables.push_back({d.abi_name, d.label, t.optional_table(d.abi_name) != nullptr});
  return tables;
}

bool has_table(const core::PluginTables& tables, const std::string& abi_name) {
  if (abi_name == GSDK_TABLE_GAME) return tables.game != nullptr;
  return tables.optional_table(abi_name.c_str()) != nullptr;
}

} // namespace gsdk::host
