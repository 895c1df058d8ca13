// cuda_env_none.cpp - a VectorEnv's CUDA side in a build without the CUDA toolkit: refuses to start.
#include <stdexcept>

#include "environments/cuda_env_stream.hpp"
#include "environments/env_backend.hpp"

namespace gsdk::core {

namespace {

[[noreturn]] void no_cuda() {
  throw std::runtime_error("this gsdk was built without CUDA (no CUDA toolkit was found at build time); "
                           "device=\"cpu\" works");
}

} // namespace

std::unique_ptr<EnvBackend> make_cuda_backend(const GameInstance&, const EnvLayout&, int32_t) {
  no_cuda();
}

// Never reached: no CUDA environment, so no device array, is ever made.
CudaDeviceScope::CudaDeviceScope(int32_t) {
  no_cuda();
}
CudaDeviceScope::~CudaDeviceScope() = default;
CudaEnvStream::CudaEnvStream(int32_t device) : device_(device) {
  no_cuda();
}
CudaEnvStream::~CudaEnvStream() = default;
void* CudaEnvStream::allocate(uint64_t) {
  no_cuda();
}
void CudaEnvStream::release(void*) noexcept {}
void CudaEnvStream::copy(void*, const void*, uint64_t) {
  no_cuda();
}
void CudaEnvStream::zero(void*, uint64_t) {
  no_cuda();
}
void CudaEnvStream::synchronize() {
  no_cuda();
}

} // namespace gsdk::core
