// cuda_check.hpp - snake's CUDA failures as plugin errors that name the call.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "gsdk/plugin.hpp"

namespace snake::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("snake CUDA: ") + what + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

} // namespace snake::cuda
