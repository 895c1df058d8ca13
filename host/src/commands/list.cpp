// list.cpp - `gsdk list`: plugins, games, parameters, capabilities, refused plugins, CUDA devices.
#include <cstdio>

#include <fmt/format.h>

#include "commands/command_line.hpp"
#include "devices/device_selection.hpp"
#include "gsdk/core/cuda_devices.hpp"

namespace gsdk::host {

namespace {

std::string describe_default(const gsdk_param_desc& d) {
  switch (d.type) {
  case GSDK_PARAM_INT: return fmt::format("int, default {}, range [{}, {}]", d.default_int, d.min_value, d.max_value);
  case GSDK_PARAM_REAL: return fmt::format("real, default {}, range [{}, {}]", d.default_real, d.min_value, d.max_value);
  case GSDK_PARAM_BOOL: return fmt::format("bool, default {}", d.default_int ? "true" : "false");
  default: return fmt::format("string, default \"{}\"", d.default_string ? d.default_string : "");
  }
}

} // namespace

int command_list(const Arguments& args) {
  po::options_description options("gsdk list");
  add_common_options(options);
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk list [--plugin-dir DIR]", options, {}, vm)) return *exit;
  const PluginCatalog catalog = load_catalog(vm, false);

  std::printf("plugins (%zu):\n", catalog.plugins().size());
  for (const auto& p : catalog.plugins()) {
    const auto& t = p->tables;
    const gsdk_game& g = *t.game;
    std::printf("\n  %s %s  (ABI %u.%u)  %s\n", t.name().c_str(), t.version().c_str(), t.info.abi_major,
                t.info.abi_minor, t.path.c_str());
    std::printf("    %s\n", g.description);
    std::printf("    players: %u%s\n", g.player_count, (g.flags & GSDK_GAME_FLAG_CHANCE) ? ", chance moves" : "");
    std::string caps = "per-state rules";
    if (t.cpu_playouts) caps += fmt::format(", CPU batch playouts (best SIMD here: {})", simd_level_name(t.cpu_playouts->best_simd_level()));
    if (t.cuda_playouts) caps += ", CUDA batch playouts";
    if (t.cuda_playout_batches) caps += ", CUDA playouts from many states per launch";
    if (t.replay) caps += ", replay";
    if (t.cpu_perft) caps += ", CPU perft";
    if (t.cuda_perft) caps += fmt::format(", CUDA perft (leaf kernel up to {} plies)", t.cuda_perft->leaf_plies);
    if (t.score_distribution) caps += ", exact score distribution";
    if (t.move_codes) caps += ", move codes (for NRPA policies)";
    if (t.cuda_level1_searches) caps += t.cuda_level2_searches ? ", CUDA level-1 and level-2 NMCS" : ", CUDA level-1 NMCS";
    if (t.cuda_nrpa_searches) caps += ", CUDA NRPA";
    std::printf("    capabilities: %s\n", caps.c_str());
    for (uint32_t i = 0; i < g.param_count; ++i)
      std::printf("    param %-12s %s - %s\n", g.params[i].name, describe_default(g.params[i]).c_str(), g.params[i].doc);
  }
  for (const auto& problem : catalog.problems())
    std::printf("\nrefused: %s\n  %s\n", problem.path.c_str(), problem.message.c_str());

  std::printf("\nCUDA: ");
  if (!core::built_with_cuda()) {
    std::printf("not built in\n");
    return kExitOk;
  }
  std::printf("built for architectures %s\n", core::cuda_architectures().c_str());
  std::string why;
  const auto devices = core::cuda_devices(why);
  if (devices.empty()) std::printf("  %s\n", why.c_str());
  for (const auto& d : devices)
    std::printf("  device %d: %s, %d SMs, compute %d.%d, %.1f GiB\n", d.ordinal, d.name.c_str(), d.multiprocessors,
                d.compute_major, d.compute_minor, d.memory_bytes / 1073741824.0);
  return kExitOk;
}

} // namespace gsdk::host
