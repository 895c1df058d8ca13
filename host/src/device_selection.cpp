// device_selection.cpp - resolving device settings against this machine and the plugin.
#include "device_selection.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/worker_pool.hpp"

namespace gsdk::host {

const char* simd_level_name(int32_t level) {
  return level >= GSDK_SIMD_AVX512 ? "avx512" : level == GSDK_SIMD_AVX2 ? "avx2" : "scalar";
}

namespace {

int32_t parse_simd(const std::string& name) {
  if (name == "avx512") return GSDK_SIMD_AVX512;
  if (name == "avx2") return GSDK_SIMD_AVX2;
  return GSDK_SIMD_SCALAR;
}

std::vector<core::CudaDeviceInfo> pick_gpus(const RunSettings& settings, bool required, std::string& why) {
  std::vector<core::CudaDeviceInfo> all = core::cuda_devices(why);
  if (all.empty()) {
    if (required) throw std::runtime_error(fmt::format("device = \"{}\" needs a GPU, but {}", settings.device, why));
    return {};
  }
  if (settings.gpus.empty()) return all;
  std::vector<core::CudaDeviceInfo> chosen;
  for (int ordinal : settings.gpus) {
    if (ordinal >= static_cast<int>(all.size()))
      throw std::runtime_error(fmt::format("gpus lists device {}, but this machine has devices 0..{}", ordinal,
                                           all.size() - 1));
    chosen.push_back(all[static_cast<size_t>(ordinal)]);
  }
  return chosen;
}

// GPUs and CPU threads for `settings`, where `cuda_table` says whether the plugin has the CUDA table
// the algorithm needs (called `table_label` in messages) and `generic_engine` that the run stays on
// the per-state table.
DeviceChoice choose_workers(const RunSettings& settings, const core::PluginTables& plugin, bool cuda_table,
                            const char* table_label, bool generic_engine) {
  DeviceChoice c;
  c.streams = settings.streams;
  std::string why;
  if (settings.device == "cuda") {
    if (generic_engine) throw std::runtime_error("device = \"cuda\" cannot run the generic per-state engine");
    if (!cuda_table)
      throw std::runtime_error(fmt::format("device = \"cuda\": plugin '{}' ({}) has no {}{}", plugin.name(),
                                           plugin.path, table_label,
                                           core::built_with_cuda() ? "" : " (and this gsdk was built without CUDA)"));
    c.gpus = pick_gpus(settings, true, why);
  } else if (settings.device == "all" || settings.device == "auto") {
    if (cuda_table && !generic_engine) c.gpus = pick_gpus(settings, false, why);
  }
  const bool want_cpu = settings.device == "cpu" || settings.device == "all" || c.gpus.empty();
  if (want_cpu) c.cpu_threads = settings.threads != 0 ? settings.threads : core::available_cpu_threads();
  return c;
}

std::string describe_workers(const DeviceChoice& c, const std::string& cpu_engine) {
  std::string parts;
  if (c.cpu_threads > 0) parts = fmt::format("cpu: {} threads ({})", c.cpu_threads, cpu_engine);
  for (const auto& g : c.gpus)
    parts += fmt::format("{}cuda: {} (device {}, {} SMs)", parts.empty() ? "" : "; ", g.name, g.ordinal, g.multiprocessors);
  return parts;
}

} // namespace

DeviceChoice choose_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine) {
  DeviceChoice c =
      choose_workers(settings, plugin, plugin.cuda_playouts != nullptr, "CUDA playout table", generic_engine);
  const int32_t best = plugin.cpu_playouts ? plugin.cpu_playouts->best_simd_level() : GSDK_SIMD_SCALAR;
  if (settings.simd == "auto") {
    c.simd_level = best;
  } else {
    c.simd_level = parse_simd(settings.simd);
    if (c.cpu_threads > 0 && c.simd_level > best)
      throw std::runtime_error(fmt::format("simd = \"{}\", but plugin '{}' on this processor supports at most \"{}\"",
                                           settings.simd, plugin.name(), simd_level_name(best)));
  }
  c.simd_name = simd_level_name(c.simd_level);
  c.summary = describe_workers(c, generic_engine ? "per-state" : c.simd_name);
  return c;
}

DeviceChoice choose_perft_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine) {
  DeviceChoice c = choose_workers(settings, plugin, plugin.cuda_perft != nullptr, "CUDA perft table", generic_engine);
  c.summary = describe_workers(c, !generic_engine && plugin.cpu_perft ? "plugin perft" : "per-state");
  return c;
}

DeviceChoice choose_qlearning_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine) {
  DeviceChoice c =
      choose_workers(settings, plugin, plugin.cuda_qlearning != nullptr, "CUDA Q-learning table", generic_engine);
  if (!c.gpus.empty()) c.cpu_threads = 0;
  c.summary = describe_workers(c, !generic_engine && plugin.cpu_qlearning ? "plugin trainer" : "per-state");
  return c;
}

DeviceChoice choose_nmcs_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine) {
  DeviceChoice c = choose_workers(settings, plugin, plugin.cuda_level1_searches != nullptr,
                                  "CUDA level-1 search table", generic_engine);
  if (!c.gpus.empty()) {
    c.cpu_threads = 0;
    c.gpus.resize(1); // one GPU runs the level-1 searches; several are not spread over yet
  }
  c.summary = describe_workers(c, generic_engine ? "per-state" : "plugin playouts");
  return c;
}

DeviceChoice choose_nrpa_devices(const RunSettings& settings, const core::PluginTables& plugin) {
  DeviceChoice c = choose_workers(settings, plugin, plugin.cuda_nrpa_searches != nullptr, "CUDA NRPA table", false);
  if (!c.gpus.empty()) c.gpus.resize(1); // one GPU runs the searches; several are not spread over yet
  c.summary = describe_workers(c, "policy playouts");
  return c;
}

} // namespace gsdk::host
