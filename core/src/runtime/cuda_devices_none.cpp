// cuda_devices_none.cpp - the CUDA services of a build without the CUDA toolkit: none, and saying so.
#include <stdexcept>

#include "gsdk/core/runtime/cuda_devices.hpp"

namespace gsdk::core {

namespace {
[[noreturn]] void unavailable() {
  throw std::runtime_error("this gsdk was built without CUDA (no CUDA toolkit was found at build time)");
}
} // namespace

bool built_with_cuda() {
  return false;
}
std::string cuda_architectures() {
  return "";
}

std::vector<CudaDeviceInfo> cuda_devices(std::string& why) {
  why = "this gsdk was built without CUDA (no CUDA toolkit was found at build time)";
  return {};
}

uint64_t cuda_free_memory(int) {
  unavailable();
}
CudaStream::CudaStream(int device) : device_(device) {
  unavailable();
}
CudaStream::~CudaStream() = default;
void CudaStream::copy_to_device(void*, const void*, uint64_t) {
  unavailable();
}
void CudaStream::copy_to_host(void*, const void*, uint64_t) {
  unavailable();
}
void CudaStream::replicate_first(void*, uint64_t, uint64_t) {
  unavailable();
}
void CudaStream::synchronize() {
  unavailable();
}
bool CudaStream::idle() {
  unavailable();
}
DeviceStopFlag::DeviceStopFlag(int device) : device_(device) {
  unavailable();
}
DeviceStopFlag::~DeviceStopFlag() = default;
void DeviceStopFlag::lower() {
  unavailable();
}
void DeviceStopFlag::raise() {
  unavailable();
}
void DeviceStopFlag::set(uint32_t) {
  unavailable();
}
KeepCudaMemory::KeepCudaMemory() = default;
KeepCudaMemory::~KeepCudaMemory() = default;
uint64_t cuda_memory_kept(int) {
  return 0;
}
PinnedBuffer::PinnedBuffer(uint64_t) {
  unavailable();
}
PinnedBuffer::~PinnedBuffer() = default;
DeviceArena::DeviceArena(int device, uint64_t) : device_(device) {
  unavailable();
}
DeviceArena::~DeviceArena() = default;
void* DeviceArena::allocate(uint64_t) {
  unavailable();
}
uint64_t DeviceArena::mark() const {
  return used_;
}
void DeviceArena::release_to(uint64_t) {}

} // namespace gsdk::core
