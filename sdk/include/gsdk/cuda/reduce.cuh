// reduce.cuh - warp and block reductions shared by plugins and core (device code cannot be linked
// across shared objects, so these live in the header-only SDK).
#pragma once

#include <cstdint>

namespace gsdk::cuda {

inline constexpr unsigned kFullWarp = 0xffffffffu;

template <typename T> __device__ __forceinline__ T warp_max(T value) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T other = __shfl_xor_sync(kFullWarp, value, offset);
    value = other > value ? other : value;
  }
  return value;
}

template <typename T> __device__ __forceinline__ T warp_sum(T value) {
  for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_xor_sync(kFullWarp, value, offset);
  return value;
}

// Max over the block; every thread gets the result. `scratch` holds one T per warp.
template <typename T> __device__ T block_max(T value, T* scratch) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = (blockDim.x + 31) >> 5;
  value = warp_max(value);
  if (lane == 0) scratch[warp] = value;
  __syncthreads();
  T result = scratch[0];
  for (int w = 1; w < warps; ++w) result = scratch[w] > result ? scratch[w] : result;
  __syncthreads();
  return result;
}

} // namespace gsdk::cuda
