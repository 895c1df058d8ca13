// plugin_listing.cpp - the document of `gsdk list --json`, which gsdk.list() of the Python module returns too.
#include "commands/plugin_listing.hpp"

#include <fmt/format.h>

#include "conformance/capability_tables.hpp"

namespace gsdk::host {

namespace {

const char* param_type(int32_t type) {
  switch (type) {
  case GSDK_PARAM_INT:
    return "int";
  case GSDK_PARAM_REAL:
    return "real";
  case GSDK_PARAM_BOOL:
    return "bool";
  default:
    return "string";
  }
}

nlohmann::json parameter_json(const gsdk_param_desc& d) {
  nlohmann::json out = {{"name", d.name}, {"type", param_type(d.type)}, {"doc", d.doc ? d.doc : ""}};
  switch (d.type) {
  case GSDK_PARAM_INT:
    out["default"] = d.default_int;
    break;
  case GSDK_PARAM_REAL:
    out["default"] = d.default_real;
    break;
  case GSDK_PARAM_BOOL:
    out["default"] = d.default_int != 0;
    break;
  default:
    out["default"] = d.default_string ? d.default_string : "";
  }
  if (d.type == GSDK_PARAM_INT || d.type == GSDK_PARAM_REAL) out["range"] = {d.min_value, d.max_value};
  return out;
}

} // namespace

CudaReport find_cuda() {
  CudaReport r;
  r.built_in = core::built_with_cuda();
  if (!r.built_in) return r;
  r.architectures = core::cuda_architectures();
  r.devices = core::cuda_devices(r.why);
  return r;
}

nlohmann::json listing_json(const PluginCatalog& catalog, const CudaReport& cuda) {
  nlohmann::json plugins = nlohmann::json::array();
  for (const auto& p : catalog.plugins()) {
    const core::PluginTables& t = p->tables;
    const gsdk_game& g = *t.game;
    nlohmann::json params = nlohmann::json::array(), tables = nlohmann::json::array({GSDK_TABLE_GAME});
    for (uint32_t i = 0; i < g.param_count; ++i) params.push_back(parameter_json(g.params[i]));
    for (const CapabilityTable& table : capability_tables(t))
      if (table.present) tables.push_back(table.abi_name);
    nlohmann::json flags = nlohmann::json::array();
    if (g.flags & GSDK_GAME_FLAG_CHANCE) flags.push_back("chance");
    plugins.push_back({{"name", t.name()},
                       {"version", t.version()},
                       {"abi", fmt::format("{}.{}", t.info.abi_major, t.info.abi_minor)},
                       {"path", t.path},
                       {"description", g.description ? g.description : ""},
                       {"players", g.player_count},
                       {"flags", flags},
                       {"parameters", params},
                       {"tables", tables}});
  }
  nlohmann::json refused = nlohmann::json::array();
  for (const auto& problem : catalog.problems())
    refused.push_back({{"path", problem.path}, {"message", problem.message}});
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : cuda.devices)
    devices.push_back({{"ordinal", d.ordinal},
                       {"name", d.name},
                       {"multiprocessors", d.multiprocessors},
                       {"compute", fmt::format("{}.{}", d.compute_major, d.compute_minor)},
                       {"memory_bytes", d.memory_bytes}});
  return {
      {"gsdk_version", GSDK_VERSION},
      {"abi", fmt::format("{}.{}", GSDK_ABI_MAJOR, GSDK_ABI_MINOR)},
      {"plugins", plugins},
      {"refused", refused},
      {"cuda",
       {{"built_in", cuda.built_in}, {"architectures", cuda.architectures}, {"devices", devices}, {"why", cuda.why}}}};
}

} // namespace gsdk::host
