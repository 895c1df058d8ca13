// hardware.cpp - CPU model from /proc/cpuinfo, GPUs from the CUDA runtime.
#include "report/hardware.hpp"

#include <fstream>
#include <string>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::host {

namespace {
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return "unknown";
}
} // namespace

nlohmann::json describe_hardware() {
  nlohmann::json h;
  h["cpu"] = cpu_model();
  h["hardware_threads"] = core::available_cpu_threads();
  std::string why;
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : core::cuda_devices(why))
    gpus.push_back({{"ordinal", g.ordinal},
                    {"name", g.name},
                    {"multiprocessors", g.multiprocessors},
                    {"compute_capability", std::to_string(g.compute_major) + "." + std::to_string(g.compute_minor)},
                    {"memory_bytes", g.memory_bytes}});
  h["gpus"] = gpus;
  if (gpus.empty()) h["gpu_note"] = why;
  return h;
}

} // namespace gsdk::host
