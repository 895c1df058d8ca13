// plugin_listing.hpp - what `gsdk list` reports: the loaded plugins with their games, parameters and capability
// tables, the refused plugins, the CUDA devices; as the JSON document of `gsdk list --json` and gsdk.list() in Python.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::host {

struct CudaReport {
  bool built_in = false;
  std::string architectures;
  std::vector<core::CudaDeviceInfo> devices;
  std::string why; // why no device is listed, when none is
};

// The CUDA runtime built in and the devices it sees on this machine.
CudaReport find_cuda();

// {gsdk_version, abi, plugins: [{name, version, abi, path, description, players, flags, parameters, tables}],
// refused: [{path, message}], cuda: {built_in, architectures, devices, why}}.
nlohmann::json listing_json(const PluginCatalog& catalog, const CudaReport& cuda);

} // namespace gsdk::host
