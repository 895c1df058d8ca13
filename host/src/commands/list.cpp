// list.cpp - `gsdk list [--json]`: plugins (name, version, ABI, path, description, players, flags, parameters,
// every capability table by its ABI name), refused plugins with the reason, CUDA devices; as text or as one
// JSON document. `gsdk list --algorithms [--json | --markdown]`: the algorithm registry, each algorithm with the
// keys of its table (the user guide's tables are this Markdown).
#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algorithms/algorithm_listing.hpp"
#include "commands/command_line.hpp"
#include "conformance/capability_tables.hpp"
#include "devices/device_selection.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "report/log.hpp"

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

std::string describe_default(const gsdk_param_desc& d) {
  switch (d.type) {
  case GSDK_PARAM_INT:
    return fmt::format("int, default {}, range [{}, {}]", d.default_int, d.min_value, d.max_value);
  case GSDK_PARAM_REAL:
    return fmt::format("real, default {}, range [{}, {}]", d.default_real, d.min_value, d.max_value);
  case GSDK_PARAM_BOOL:
    return fmt::format("bool, default {}", d.default_int ? "true" : "false");
  default:
    return fmt::format("string, default \"{}\"", d.default_string ? d.default_string : "");
  }
}

// What a table's line adds to its label: facts the table itself states.
std::string table_detail(const core::PluginTables& t, const std::string& abi_name) {
  if (abi_name == GSDK_TABLE_CPU_PLAYOUTS)
    return fmt::format(" (best SIMD here: {})", simd_level_name(t.cpu_playouts->best_simd_level()));
  if (abi_name == GSDK_TABLE_CUDA_PERFT)
    return fmt::format(" (leaf kernel up to {} plies{})", t.cuda_perft->leaf_plies,
                       core::fused_leaf_count(*t.cuda_perft) ? ", fused leaf counts" : "");
  return "";
}

struct CudaReport {
  bool built_in = false;
  std::string architectures;
  std::vector<core::CudaDeviceInfo> devices;
  std::string why;
};

CudaReport find_cuda() {
  CudaReport r;
  r.built_in = core::built_with_cuda();
  if (!r.built_in) return r;
  r.architectures = core::cuda_architectures();
  r.devices = core::cuda_devices(r.why);
  return r;
}

void print_text(const PluginCatalog& catalog, const CudaReport& cuda) {
  std::printf("plugins (%zu):\n", catalog.plugins().size());
  for (const auto& p : catalog.plugins()) {
    const core::PluginTables& t = p->tables;
    const gsdk_game& g = *t.game;
    std::printf("\n  %s %s  (ABI %u.%u)  %s\n", t.name().c_str(), t.version().c_str(), t.info.abi_major,
                t.info.abi_minor, t.path.c_str());
    std::printf("    %s\n", g.description);
    std::printf("    players: %u%s\n", g.player_count, (g.flags & GSDK_GAME_FLAG_CHANCE) ? ", chance moves" : "");
    std::printf("    tables:\n      %-32s per-state rules\n", GSDK_TABLE_GAME);
    for (const CapabilityTable& table : capability_tables(t))
      if (table.present)
        std::printf("      %-32s %s%s\n", table.abi_name, table.label, table_detail(t, table.abi_name).c_str());
    for (uint32_t i = 0; i < g.param_count; ++i)
      std::printf("    param %-12s %s - %s\n", g.params[i].name, describe_default(g.params[i]).c_str(),
                  g.params[i].doc);
  }
  for (const auto& problem : catalog.problems())
    std::printf("\nrefused: %s\n  %s\n", problem.path.c_str(), problem.message.c_str());

  std::printf("\nCUDA: ");
  if (!cuda.built_in) {
    std::printf("not built in\n");
    return;
  }
  std::printf("built for architectures %s\n", cuda.architectures.c_str());
  if (cuda.devices.empty()) std::printf("  %s\n", cuda.why.c_str());
  for (const auto& d : cuda.devices)
    std::printf("  device %d: %s, %d SMs, compute %d.%d, %.1f GiB\n", d.ordinal, d.name.c_str(), d.multiprocessors,
                d.compute_major, d.compute_minor, d.memory_bytes / 1073741824.0);
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

nlohmann::json to_json(const PluginCatalog& catalog, const CudaReport& cuda) {
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

} // namespace

int command_list(const Arguments& args) {
  po::options_description options("gsdk list");
  add_common_options(options);
  options.add_options()("json", "print the same as one JSON document")(
      "algorithms", "list the algorithms an experiment can run, with the keys of their tables")(
      "markdown", "with --algorithms: as the user guide's Markdown tables");
  po::variables_map vm;
  if (auto exit = parse_arguments(
          args, "gsdk list [--plugin-dir DIR] [--json] | gsdk list --algorithms [--json|--markdown]", options, {}, vm))
    return *exit;
  if (vm.count("markdown") && !vm.count("algorithms")) {
    log_line(LogLevel::error, "--markdown lists the algorithms: use it with --algorithms");
    return kExitUsage;
  }
  if (vm.count("algorithms")) {
    if (vm.count("json"))
      std::cout << algorithms_json().dump(2) << '\n';
    else
      std::cout << (vm.count("markdown") ? algorithms_markdown() : algorithms_text());
    return kExitOk;
  }
  const PluginCatalog catalog = load_catalog(vm, false);
  const CudaReport cuda = find_cuda();
  if (vm.count("json"))
    std::cout << to_json(catalog, cuda).dump(2) << '\n';
  else
    print_text(catalog, cuda);
  return kExitOk;
}

} // namespace gsdk::host
