// device_selection.hpp - turning [run] (device = auto|cpu|cuda|all, threads, gpus, streams, simd) into
// the workers of one run, refusing with a clear message what cannot run here. What a run asks of the
// devices (which CUDA table a GPU would run, whether CPUs work beside GPUs, ...) is its algorithm's
// DeviceNeeds; the choice itself is made here, once, for every algorithm.
#pragma once

#include <string>
#include <vector>

#include "config/run_settings.hpp"
#include "gsdk/core/agents/agents.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::host {

struct DeviceNeeds {
  bool has_cuda_table = false;      // the plugin has the CUDA table a GPU would run
  std::string cuda_table;           // that table, as messages name it: "CUDA perft table"
  bool generic_engine = false;      // the run stays on the per-state table, which only CPUs run
  bool cpus_idle_with_gpus = false; // with a GPU, the CPU threads do not compute
  bool one_gpu = false;             // the run uses the first GPU chosen (several are not spread over)
  std::string cpu_engine;           // what CPU threads run, for the summary: "plugin perft", "per-state"
  bool simd = false;                // honour [run] simd against the plugin's CPU playout table
};

struct DeviceChoice {
  unsigned cpu_threads = 0;
  std::vector<core::CudaDeviceInfo> gpus;
  unsigned streams = 1;
  int32_t simd_level = GSDK_SIMD_SCALAR;
  std::string simd_name = "scalar";
  std::string summary; // e.g. "cuda: NVIDIA H100 80GB HBM3 (device 0, 132 SMs)"
};

// How to run on the CPU what asked for CUDA, for the refusal's message: an experiment's [run], or a command
// whose only device setting is --device.
inline constexpr const char* kCpuForRunSettings = "run it on the CPU with --device cpu, or set run.device = \"cpu\"";
inline constexpr const char* kCpuForDeviceOption = "run it on the CPU with --device cpu";
inline constexpr const char* kCpuForAgentSpec = "run it on the CPU with device=cpu in the agent spec";

// Throws ConfigError (a usage error: the request cannot be served here) when this gsdk was built without CUDA
// or the machine has no usable CUDA device: "<asked> asks for device = "cuda", which this machine cannot serve
// (<why>): <on_cpu>".
void require_usable_cuda(const std::string& asked, const std::string& on_cpu);

// require_usable_cuda for an agent that plays on CUDA; `spec` is the agent spec as the user wrote it.
void require_agent_device(const core::AgentSettings& agent, const std::string& spec);

// Throws ConfigError when "cuda" is asked for and there is no CUDA here (require_usable_cuda, with `on_cpu`);
// std::runtime_error: GPUs that do not exist, a plugin without the table the device needs, a SIMD level the
// processor or plugin lacks.
DeviceChoice choose_devices(const RunSettings& settings, const core::PluginTables& plugin, const DeviceNeeds& needs,
                            const std::string& on_cpu = kCpuForRunSettings);

const char* simd_level_name(int32_t level);

} // namespace gsdk::host
