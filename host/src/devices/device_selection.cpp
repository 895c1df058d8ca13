// device_selection.cpp - resolving [run] against this machine, the plugin and an algorithm's needs.
#include "devices/device_selection.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "config/config_error.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

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

[[noreturn]] void refuse_cuda(const std::string& asked, const std::string& why, const std::string& on_cpu) {
  throw ConfigError(
      fmt::format("{} asks for device = \"cuda\", which this machine cannot serve ({}): {}", asked, why, on_cpu));
}

// Every GPU [run] names, or every GPU here; none when there is none (the caller has refused "cuda" by then).
std::vector<core::CudaDeviceInfo> pick_gpus(const RunSettings& settings) {
  std::string why;
  std::vector<core::CudaDeviceInfo> all = core::cuda_devices(why);
  if (all.empty()) return {};
  if (settings.gpus.empty()) return all;
  std::vector<core::CudaDeviceInfo> chosen;
  for (int ordinal : settings.gpus) {
    if (ordinal >= static_cast<int>(all.size()))
      throw std::runtime_error(
          fmt::format("gpus lists device {}, but this machine has devices 0..{}", ordinal, all.size() - 1));
    chosen.push_back(all[static_cast<size_t>(ordinal)]);
  }
  return chosen;
}

// The SIMD level for CPU playouts: the plugin's best here, or the one [run] names when the plugin has it.
int32_t choose_simd(const RunSettings& settings, const core::PluginTables& plugin, bool cpus_work) {
  const int32_t best = plugin.cpu_playouts ? plugin.cpu_playouts->best_simd_level() : GSDK_SIMD_SCALAR;
  if (settings.simd == "auto") return best;
  const int32_t level = parse_simd(settings.simd);
  if (cpus_work && level > best)
    throw std::runtime_error(fmt::format("simd = \"{}\", but plugin '{}' on this processor supports at most \"{}\"",
                                         settings.simd, plugin.name(), simd_level_name(best)));
  return level;
}

std::string describe_workers(const DeviceChoice& c, const std::string& cpu_engine) {
  std::string parts;
  if (c.cpu_threads > 0) parts = fmt::format("cpu: {} threads ({})", c.cpu_threads, cpu_engine);
  for (const auto& g : c.gpus)
    parts +=
        fmt::format("{}cuda: {} (device {}, {} SMs)", parts.empty() ? "" : "; ", g.name, g.ordinal, g.multiprocessors);
  return parts;
}

} // namespace

void require_usable_cuda(const std::string& asked, const std::string& on_cpu) {
  std::string why;
  if (core::cuda_devices(why).empty()) refuse_cuda(asked, why, on_cpu);
}

void require_agent_device(const core::AgentSettings& agent, const std::string& spec) {
  if (agent.device == core::PlayoutDevice::cuda)
    require_usable_cuda(fmt::format("agent spec '{}'", spec), kCpuForAgentSpec);
}

DeviceChoice choose_devices(const RunSettings& settings, const core::PluginTables& plugin, const DeviceNeeds& needs,
                            const std::string& on_cpu) {
  DeviceChoice c;
  c.streams = settings.streams;
  if (settings.device == DeviceRequest::cuda) {
    // Without CUDA in this build no plugin has a CUDA table either: say what the user can do about it.
    if (!core::built_with_cuda()) require_usable_cuda("this run", on_cpu);
    if (needs.generic_engine) throw std::runtime_error("device = \"cuda\" cannot run the generic per-state engine");
    if (!needs.has_cuda_table)
      throw std::runtime_error(
          fmt::format("device = \"cuda\": plugin '{}' ({}) has no {}", plugin.name(), plugin.path, needs.cuda_table));
    require_usable_cuda("this run", on_cpu);
    c.gpus = pick_gpus(settings);
  } else if (settings.device == DeviceRequest::all || settings.device == DeviceRequest::automatic) {
    if (needs.has_cuda_table && !needs.generic_engine) c.gpus = pick_gpus(settings);
  }
  const bool want_cpu =
      settings.device == DeviceRequest::cpu || settings.device == DeviceRequest::all || c.gpus.empty();
  if (want_cpu) c.cpu_threads = settings.threads != 0 ? settings.threads : core::available_cpu_threads();
  if (!c.gpus.empty() && needs.cpus_idle_with_gpus) c.cpu_threads = 0;
  if (!c.gpus.empty() && needs.one_gpu) c.gpus.resize(1);
  std::string cpu_engine = needs.cpu_engine;
  if (needs.simd) {
    c.simd_level = choose_simd(settings, plugin, c.cpu_threads > 0);
    c.simd_name = simd_level_name(c.simd_level);
    if (!needs.generic_engine) cpu_engine = c.simd_name;
  }
  c.summary = describe_workers(c, cpu_engine);
  return c;
}

} // namespace gsdk::host
