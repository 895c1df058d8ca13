// run_settings.hpp - an experiment's [run] table: which devices, how many threads, GPUs, streams, SIMD.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gsdk::host {

// [run] device (and --device): the GPUs when the algorithm can use them, else the CPU (automatic: "auto"); the CPU
// alone; the GPUs alone; both. Read once from its word; devices/device_selection.hpp chooses within it.
enum class DeviceRequest { automatic, cpu, cuda, all };

// The word of a request: "auto", "cpu", "cuda" or "all".
inline const char* device_word(DeviceRequest device) {
  switch (device) {
  case DeviceRequest::cpu:
    return "cpu";
  case DeviceRequest::cuda:
    return "cuda";
  case DeviceRequest::all:
    return "all";
  case DeviceRequest::automatic:
    break;
  }
  return "auto";
}

// The request a word names; none for a word that names none.
inline std::optional<DeviceRequest> parse_device(const std::string& word) {
  for (DeviceRequest device : {DeviceRequest::automatic, DeviceRequest::cpu, DeviceRequest::cuda, DeviceRequest::all})
    if (word == device_word(device)) return device;
  return std::nullopt;
}

struct RunSettings {
  DeviceRequest device = DeviceRequest::automatic;
  unsigned threads = 0;  // 0: every hardware thread
  std::vector<int> gpus; // empty: every GPU
  unsigned streams = 2;
  std::string simd = "auto"; // auto | avx512 | avx2 | scalar
};

} // namespace gsdk::host
