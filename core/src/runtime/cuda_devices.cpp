// cuda_devices.cpp - CUDA device enumeration, streams, arenas and pinned buffers (CUDA builds).
#include "gsdk/core/runtime/cuda_devices.hpp"

#include <algorithm>

#include <cuda_runtime.h>

#include <stdexcept>

#include <fmt/format.h>

#include "cuda_memory_shelf.hpp"

namespace gsdk::core {

namespace {
void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(fmt::format("CUDA: {} failed: {}", what, cudaGetErrorString(status)));
}
} // namespace

bool built_with_cuda() {
  return true;
}

std::string cuda_architectures() {
  return GSDK_CUDA_ARCHITECTURES;
}

std::vector<CudaDeviceInfo> cuda_devices(std::string& why) {
  std::vector<CudaDeviceInfo> devices;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    why = fmt::format("no usable CUDA device: {} ({})", cudaGetErrorString(status), cudaGetErrorName(status));
    return devices;
  }
  if (count == 0) {
    why = "no CUDA device found";
    return devices;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    devices.push_back({d, p.name, p.multiProcessorCount, p.major, p.minor, static_cast<uint64_t>(p.totalGlobalMem)});
  }
  if (devices.empty()) why = "CUDA devices exist but none could be queried";
  return devices;
}

uint64_t cuda_free_memory(int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return free_bytes + shelf::device_bytes(device);
}

CudaStream::CudaStream(int device) : device_(device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  stream_ = s;
}

CudaStream::~CudaStream() {
  if (!stream_) return;
  cudaSetDevice(device_);
  cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

void CudaStream::copy_to_device(void* device_destination, const void* host_source, uint64_t bytes) {
  check(cudaMemcpyAsync(device_destination, host_source, bytes, cudaMemcpyHostToDevice,
                        static_cast<cudaStream_t>(stream_)),
        "cudaMemcpyAsync to the device");
}

void CudaStream::copy_to_host(void* host_destination, const void* device_source, uint64_t bytes) {
  check(cudaMemcpyAsync(host_destination, device_source, bytes, cudaMemcpyDeviceToHost,
                        static_cast<cudaStream_t>(stream_)),
        "cudaMemcpyAsync to the host");
}

void CudaStream::replicate_first(void* device_blobs, uint64_t blob_bytes, uint64_t count) {
  auto* blobs = static_cast<unsigned char*>(device_blobs);
  for (uint64_t filled = 1; filled < count; filled *= 2) {
    const uint64_t copies = std::min(filled, count - filled);
    check(cudaMemcpyAsync(blobs + filled * blob_bytes, blobs, copies * blob_bytes, cudaMemcpyDeviceToDevice,
                          static_cast<cudaStream_t>(stream_)),
          "cudaMemcpyAsync on the device");
  }
}

void CudaStream::synchronize() {
  check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream_)), "cudaStreamSynchronize (work on the stream failed)");
}

bool CudaStream::idle() {
  const cudaError_t status = cudaStreamQuery(static_cast<cudaStream_t>(stream_));
  if (status == cudaErrorNotReady) return false;
  check(status, "cudaStreamQuery (work on the stream failed)");
  return true;
}

DeviceStopFlag::DeviceStopFlag(int device) : device_(device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  void* word = nullptr;
  void* values = nullptr;
  cudaStream_t s = nullptr;
  check(cudaMalloc(&word, sizeof(uint32_t)), "cudaMalloc of a stop flag");
  word_ = static_cast<uint32_t*>(word);
  check(cudaMallocHost(&values, 2 * sizeof(uint32_t)), "cudaMallocHost of a stop flag's values");
  values_ = static_cast<uint32_t*>(values);
  values_[0] = 0, values_[1] = 1;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  stream_ = s;
  lower();
}

DeviceStopFlag::~DeviceStopFlag() {
  cudaSetDevice(device_);
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
  if (values_) cudaFreeHost(values_);
  if (word_) cudaFree(word_);
}

void DeviceStopFlag::lower() {
  set(0);
}
void DeviceStopFlag::raise() {
  set(1);
}

void DeviceStopFlag::set(uint32_t value) {
  check(cudaSetDevice(device_), "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_);
  check(cudaMemcpyAsync(word_, values_ + value, sizeof(uint32_t), cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync of a stop flag");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize of a stop flag");
}

PinnedBuffer::PinnedBuffer(uint64_t bytes) : size_(bytes) {
  void* p = nullptr;
  const cudaError_t status = cudaMallocHost(&p, bytes > 0 ? bytes : 1);
  if (status != cudaSuccess)
    throw std::runtime_error(
        fmt::format("CUDA: cannot allocate {} bytes of pinned host memory: {}", bytes, cudaGetErrorString(status)));
  data_ = static_cast<unsigned char*>(p);
}

PinnedBuffer::~PinnedBuffer() {
  if (data_) cudaFreeHost(data_);
}

DeviceArena::DeviceArena(int device, uint64_t bytes) : device_(device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  void* p = shelf::take_device(device, bytes, &block_size_);
  if (!p) {
    p = shelf::allocate_device(device, bytes, "an arena");
    block_size_ = bytes;
  }
  base_ = static_cast<unsigned char*>(p);
  capacity_ = bytes;
}

DeviceArena::~DeviceArena() {
  if (base_) shelf::put_device(device_, base_, block_size_);
}

void* DeviceArena::allocate(uint64_t bytes) {
  std::lock_guard lock(mutex_);
  const uint64_t aligned = (used_ + 255) & ~uint64_t{255};
  if (aligned + bytes > capacity_)
    throw std::runtime_error(fmt::format("CUDA device {}: arena of {} bytes cannot fit {} more bytes ({} in use)",
                                         device_, capacity_, bytes, used_));
  used_ = aligned + bytes;
  return base_ + aligned;
}

uint64_t DeviceArena::mark() const {
  std::lock_guard lock(mutex_);
  return used_;
}

void DeviceArena::release_to(uint64_t mark) {
  std::lock_guard lock(mutex_);
  if (mark <= used_) used_ = mark;
}

} // namespace gsdk::core
