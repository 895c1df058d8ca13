// linked_plugin.hpp - the capability tables of a plugin whose objects are linked into the test itself
// (its gsdk_negotiate resolved at link time), so tests can reach both its internals and its tables.
#pragma once

#include <stdexcept>
#include <string>

#include "gsdk/core/runtime/plugin_tables.hpp"

extern "C" int32_t gsdk_negotiate(const gsdk_negotiation*, gsdk_plugin_info*, char*, uint32_t);

namespace gsdk::test {

// Negotiated once per process; `label` names the plugin in messages.
inline const core::PluginTables& linked_plugin_tables(const std::string& label) {
  static const core::PluginTables tables = [&] {
    gsdk_negotiation request{{GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR, GSDK_ABI_MAJOR, nullptr};
    gsdk_plugin_info info{};
    info.header = {GSDK_TYPE_PLUGIN_INFO, sizeof info};
    char error[256] = {};
    if (gsdk_negotiate(&request, &info, error, sizeof error) != GSDK_OK) throw std::runtime_error(error);
    return core::bind_tables(label + " (linked)", info);
  }();
  return tables;
}

} // namespace gsdk::test
