// cuda_check.hpp - snake's CUDA failures as plugin errors that name the call, and the SDK's launch
// helpers under the same name.
#pragma once

#include "device_rules.hpp"
#include "gsdk/cuda/launch.cuh"

namespace snake::cuda {

inline constexpr const char* kOwner = DeviceRules::kOwner;

inline void check(cudaError_t status, const char* what) {
  gsdk::cuda::check(status, kOwner, what);
}

} // namespace snake::cuda
