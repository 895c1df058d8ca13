// gpu.hpp - GSDK_REQUIRE_GPU(): skips the current test cleanly when this machine (or this build) has
// no usable CUDA device, and says why.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/cuda_devices.hpp"

namespace gsdk::test {

// Enumerated once per process.
inline const std::vector<core::CudaDeviceInfo>& gpus(std::string* why = nullptr) {
  static std::string reason;
  static const std::vector<core::CudaDeviceInfo> devices = core::cuda_devices(reason);
  if (why) *why = reason;
  return devices;
}

inline bool have_gpu() { return !gpus().empty(); }

} // namespace gsdk::test

#define GSDK_REQUIRE_GPU()                                                                                           \
  do {                                                                                                               \
    std::string gsdk_gpu_why_;                                                                                       \
    if (::gsdk::test::gpus(&gsdk_gpu_why_).empty()) GTEST_SKIP() << "needs a CUDA GPU: " << gsdk_gpu_why_;           \
  } while (0)
