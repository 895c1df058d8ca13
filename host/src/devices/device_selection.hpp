// device_selection.hpp - turning [run] (device = auto|cpu|cuda|all, threads, gpus, streams, simd) into
// the workers of one run, refusing with a clear message what cannot run here. What a run asks of the
// devices (which CUDA table a GPU would run, whether CPUs work beside GPUs, ...) is its algorithm's
// DeviceNeeds; the choice itself is made here, once, for every algorithm.
#pragma once

#include <string>
#include <vector>

#include "config/run_settings.hpp"
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

// Throws std::runtime_error: no usable GPU for "cuda", GPUs that do not exist, a plugin without the
// table the device needs, a SIMD level the processor or plugin lacks.
DeviceChoice choose_devices(const RunSettings& settings, const core::PluginTables& plugin, const DeviceNeeds& needs);

const char* simd_level_name(int32_t level);

} // namespace gsdk::host
