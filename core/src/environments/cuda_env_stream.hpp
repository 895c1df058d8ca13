// cuda_env_stream.hpp - a VectorEnv's CUDA stream and its stream-ordered memory (internal to the core). Every
// device array of the environment is allocated and freed on it, so an array outlives the environment by keeping
// the stream (a shared_ptr) alive.
#pragma once

#include <cstdint>

namespace gsdk::core {

// Makes `device` current for one call and puts the caller's device back, so that an environment on device 1 does not
// move a Python thread's later work off device 0.
class CudaDeviceScope {
public:
  explicit CudaDeviceScope(int32_t device);
  ~CudaDeviceScope();
  CudaDeviceScope(const CudaDeviceScope&) = delete;
  CudaDeviceScope& operator=(const CudaDeviceScope&) = delete;

private:
  int previous_ = -1;
};

class CudaEnvStream {
public:
  // Throws std::runtime_error naming the device (or saying this build has no CUDA).
  explicit CudaEnvStream(int32_t device);
  ~CudaEnvStream();
  CudaEnvStream(const CudaEnvStream&) = delete;
  CudaEnvStream& operator=(const CudaEnvStream&) = delete;

  int32_t device() const { return device_; }
  void* handle() const { return stream_; }
  // cudaMallocAsync / cudaFreeAsync on this stream.
  void* allocate(uint64_t bytes);
  void release(void* block) noexcept;
  // Enqueued copies in any direction (the runtime infers it from the pointers) and zero fills.
  void copy(void* destination, const void* source, uint64_t bytes);
  void zero(void* destination, uint64_t bytes);
  void synchronize();

private:
  int32_t device_;
  void* stream_ = nullptr;
};

} // namespace gsdk::core
