// hd.hpp - one macro so rules and RNG code compile unchanged for the host and for CUDA devices.
#pragma once

#if defined(__CUDACC__)
#define GSDK_HD __host__ __device__ __forceinline__
#define GSDK_DEVICE_CODE 1
#else
#define GSDK_HD inline
#endif
