// cuda_env_stream.cpp - a VectorEnv's CUDA stream and its stream-ordered allocations (CUDA builds).
#include "environments/cuda_env_stream.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::core {

namespace {

void check(cudaError_t status, int32_t device, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(fmt::format("CUDA device {}: {} failed: {}", device, what, cudaGetErrorString(status)));
}

cudaStream_t as_stream(void* handle) {
  return static_cast<cudaStream_t>(handle);
}

} // namespace

CudaDeviceScope::CudaDeviceScope(int32_t device) {
  if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
  if (previous_ != device) check(cudaSetDevice(device), device, "cudaSetDevice");
}

CudaDeviceScope::~CudaDeviceScope() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

CudaEnvStream::CudaEnvStream(int32_t device) : device_(device) {
  int devices = 0;
  check(cudaGetDeviceCount(&devices), device, "cudaGetDeviceCount");
  if (device < 0 || device >= devices)
    throw std::invalid_argument(fmt::format("CUDA device {} does not exist: this machine has {} (ordinals 0..{})",
                                            device, devices, devices - 1));
  CudaDeviceScope scope(device_);
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), device_, "cudaStreamCreate");
  stream_ = stream;
  // Every step allocates its arrays (hundreds of megabytes for millions of games) and frees the last ones. With the
  // default pool's release threshold of 0 the pool hands its memory back to the driver at every synchronisation,
  // and each step maps it afresh; keeping it makes the next step's allocations reuse it (measured: docs/perf/python.md).
  cudaMemPool_t pool = nullptr;
  check(cudaDeviceGetDefaultMemPool(&pool, device_), device_, "cudaDeviceGetDefaultMemPool");
  uint64_t keep_all = UINT64_MAX;
  check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all), device_,
        "cudaMemPoolSetAttribute(release threshold)");
}

CudaEnvStream::~CudaEnvStream() {
  CudaDeviceScope scope(device_);
  cudaStreamSynchronize(as_stream(stream_));
  cudaStreamDestroy(as_stream(stream_));
}

void* CudaEnvStream::allocate(uint64_t bytes) {
  CudaDeviceScope scope(device_);
  void* block = nullptr;
  // A zero-byte request still gets a distinct block, so that data() is never null.
  const cudaError_t status = cudaMallocAsync(&block, bytes == 0 ? 1 : bytes, as_stream(stream_));
  if (status != cudaSuccess) check(status, device_, fmt::format("cudaMallocAsync of {} bytes", bytes).c_str());
  return block;
}

void CudaEnvStream::release(void* block) noexcept {
  // An array's destructor cannot report a failure; a device that can no longer be made current has lost its
  // context, and the block with it.
  try {
    CudaDeviceScope scope(device_);
    cudaFreeAsync(block, as_stream(stream_));
  } catch (const std::runtime_error&) {
  }
}

void CudaEnvStream::copy(void* destination, const void* source, uint64_t bytes) {
  CudaDeviceScope scope(device_);
  check(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDefault, as_stream(stream_)), device_, "cudaMemcpyAsync");
}

void CudaEnvStream::zero(void* destination, uint64_t bytes) {
  CudaDeviceScope scope(device_);
  check(cudaMemsetAsync(destination, 0, bytes, as_stream(stream_)), device_, "cudaMemsetAsync");
}

void CudaEnvStream::synchronize() {
  CudaDeviceScope scope(device_);
  check(cudaStreamSynchronize(as_stream(stream_)), device_, "cudaStreamSynchronize");
}

} // namespace gsdk::core
