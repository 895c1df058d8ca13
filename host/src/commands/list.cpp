// list.cpp - `gsdk list [--json]`: plugins (name, version, ABI, path, description, players, flags, parameters,
// every capability table by its ABI name), refused plugins with the reason, CUDA devices; as text or as one
// JSON document. `gsdk list --algorithms [--json | --markdown]`: the algorithm registry, each algorithm with the
// keys of its table (the user guide's tables are this Markdown).
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "algorithms/algorithm_listing.hpp"
#include "commands/command_line.hpp"
#include "commands/plugin_listing.hpp"
#include "conformance/capability_tables.hpp"
#include "devices/device_selection.hpp"
#include "report/log.hpp"

namespace gsdk::host {

namespace {

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

} // namespace

int command_list(const Arguments& args) {
  po::options_description options("gsdk list");
  add_common_options(options);
  options.add_options()("json", "print the same as one JSON document")(
      "algorithms", "list the algorithms an experiment can run, with the keys of their tables")(
      "markdown", "with --algorithms: as the user guide's Markdown tables")(
      "names", "only the game names, one a line (what the shell completion offers)");
  po::variables_map vm;
  if (auto exit = parse_arguments(
          args, "gsdk list [--plugin-dir DIR] [--json | --names] | gsdk list --algorithms [--json|--markdown]", options,
          {}, vm))
    return *exit;
  if (vm.count("markdown") && !vm.count("algorithms")) {
    log_line(LogLevel::error, "--markdown lists the algorithms: use it with --algorithms");
    return kExitUsage;
  }
  if (vm.count("names") && (vm.count("json") || vm.count("algorithms"))) {
    log_line(LogLevel::error, "--names lists the game names alone: use it without --json and --algorithms");
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
  if (vm.count("names")) {
    for (const auto& p : catalog.plugins()) std::printf("%s\n", p->tables.name().c_str());
    return kExitOk;
  }
  const CudaReport cuda = find_cuda();
  if (vm.count("json"))
    std::cout << listing_json(catalog, cuda).dump(2) << '\n';
  else
    print_text(catalog, cuda);
  return kExitOk;
}

} // namespace gsdk::host
