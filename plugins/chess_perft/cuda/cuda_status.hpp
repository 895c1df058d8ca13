// cuda_status.hpp - a failed CUDA call or kernel launch as the plugin's error (GSDK_ERR_DEVICE, naming what failed),
// for every kernel file of chess_perft.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "gsdk/plugin.hpp"

namespace chess {

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("chess_perft: ") + what + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

inline void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), (std::string("launching ") + kernel).c_str());
}

} // namespace chess
