// device_selection.hpp - turning `device = auto|cpu|cuda|all` (and threads, gpus, simd) into
// workers, refusing with a clear message what cannot run here.
#pragma once

#include <string>
#include <vector>

#include "experiment_config.hpp"
#include "gsdk/core/cuda_devices.hpp"
#include "gsdk/core/plugin_tables.hpp"

namespace gsdk::host {

struct DeviceChoice {
  unsigned cpu_threads = 0;
  std::vector<core::CudaDeviceInfo> gpus;
  unsigned streams = 1;
  int32_t simd_level = GSDK_SIMD_SCALAR;
  std::string simd_name = "scalar";
  std::string summary; // e.g. "cuda: NVIDIA H100 80GB HBM3 (device 0)"
};

// Throws std::runtime_error: no usable GPU for "cuda", GPUs that do not exist, a plugin without the
// table the device needs, a SIMD level the processor or plugin lacks.
DeviceChoice choose_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine);

// The same for perft: GPUs need the plugin's CUDA perft table; `simd` does not apply.
DeviceChoice choose_perft_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine);

// The same for Q-learning: GPUs need the plugin's CUDA Q-learning table; with GPUs the CPUs stay idle.
DeviceChoice choose_qlearning_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine);

// The same for NMCS: a GPU runs whole level-1 searches through the plugin's CUDA level-1 search table
// (the first GPU chosen); with a GPU the CPUs stay idle.
DeviceChoice choose_nmcs_devices(const RunSettings& settings, const core::PluginTables& plugin, bool generic_engine);

// The same for NRPA: a GPU runs whole NRPA searches of one level through the plugin's CUDA NRPA table (the
// first GPU chosen); the CPU threads replay its sequences and adapt the levels above.
DeviceChoice choose_nrpa_devices(const RunSettings& settings, const core::PluginTables& plugin);

const char* simd_level_name(int32_t level);

} // namespace gsdk::host
