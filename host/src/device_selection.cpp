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

} // namespace

DeviceChoice choose_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine) {
  DeviceChoice c;
  c.streams = settings.streams;
  const bool has_cuda_table = plugin.cuda_playouts != nullptr && !generic_engine;
  std::string why;
  std::vector<core::CudaDeviceInfo> gpus;
  if (settings.device == "cuda") {
    if (generic_engine) throw std::runtime_error("device = \"cuda\" cannot run the generic per-state engine");
    if (!plugin.cuda_playouts)
      throw std::runtime_error(fmt::format("device = \"cuda\": plugin '{}' ({}) has no CUDA playout table{}",
                                           plugin.name(), plugin.path,
                                           core::built_with_cuda() ? "" : " (and this gsdk was built without CUDA)"));
    gpus = pick_gpus(settings, true, why);
  } else if (settings.device == "all" || settings.device == "auto") {
    if (has_cuda_table) gpus = pick_gpus(settings, false, why);
  }
  const bool want_cpu = settings.device == "cpu" || settings.device == "all" || gpus.empty();
  c.gpus = gpus;
  if (want_cpu) c.cpu_threads = settings.threads != 0 ? settings.threads : core::available_cpu_threads();

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

  std::string parts;
  if (c.cpu_threads > 0) parts = fmt::format("cpu: {} threads ({})", c.cpu_threads, generic_engine ? "per-state" : c.simd_name);
  for (const auto& g : c.gpus)
    parts += fmt::format("{}cuda: {} (device {}, {} SMs)", parts.empty() ? "" : "; ", g.name, g.ordinal, g.multiprocessors);
  c.summary = parts;
  return c;
}

} // namespace gsdk::host
