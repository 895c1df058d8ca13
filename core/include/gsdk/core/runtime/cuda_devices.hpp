// cuda_devices.hpp - what the core knows of CUDA devices: enumeration, streams, device arenas, pinned
// host buffers.
// Built against the static CUDA runtime when the toolkit is present; otherwise every call reports
// that this build has no CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gsdk::core {

struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;
  int multiprocessors = 0;
  int compute_major = 0;
  int compute_minor = 0;
  uint64_t memory_bytes = 0;
};

// True when this build links the CUDA runtime.
bool built_with_cuda();
// The CUDA architectures this build's kernels target (e.g. "90"), empty without CUDA.
std::string cuda_architectures();

// Usable devices. When there are none, `why` says why (no CUDA in this build, no driver, no GPU...).
std::vector<CudaDeviceInfo> cuda_devices(std::string& why);

// Bytes of device memory free now (what arenas are sized from), the memory KeepCudaMemory keeps for the next run
// included. Throws std::runtime_error.
uint64_t cuda_free_memory(int device);

// While one of these lives, device arenas that runs release stay with the process, and the next run's arenas on
// the same device take them back: no cudaMalloc and cudaFree of half a GPU per run (tens of milliseconds). For a
// process that runs many short runs one after the other, such as the chunks of an MPI rank. The last one to end
// gives the memory back to CUDA. Thread-safe.
class KeepCudaMemory {
public:
  KeepCudaMemory();
  ~KeepCudaMemory();
  KeepCudaMemory(const KeepCudaMemory&) = delete;
  KeepCudaMemory& operator=(const KeepCudaMemory&) = delete;
};

// Bytes of device memory a KeepCudaMemory keeps for the next run on `device` now (0 without one).
uint64_t cuda_memory_kept(int device);

// A CUDA stream on one device; destroyed with the object.
class CudaStream {
public:
  explicit CudaStream(int device);
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  void* handle() const { return stream_; }

  // Enqueued copies (fully asynchronous only with pinned host memory) and the wait for all work.
  void copy_to_device(void* device_destination, const void* host_source, uint64_t bytes);
  void copy_to_host(void* host_destination, const void* device_source, uint64_t bytes);
  void synchronize();
  // Whether all work enqueued so far has finished (without waiting).
  bool idle();
  // Enqueues copies of the first of `count` blobs of `blob_bytes` (device memory) over the others, in
  // doubling device-to-device copies: log2(count) copies instead of count uploads.
  void replicate_first(void* device_blobs, uint64_t blob_bytes, uint64_t count);

private:
  int device_;
  void* stream_ = nullptr;
};

// A word of device memory that long-running search kernels poll (ABI 1.6's run_stoppable) and that the host
// raises while they run. Raising copies through a stream of its own, so it does not queue behind the kernels
// (a copy engine writes the word while every SM is busy).
class DeviceStopFlag {
public:
  explicit DeviceStopFlag(int device);
  ~DeviceStopFlag();
  DeviceStopFlag(const DeviceStopFlag&) = delete;
  DeviceStopFlag& operator=(const DeviceStopFlag&) = delete;
  const uint32_t* device_address() const { return word_; }
  // Sets the word to 0 (before launching searches) or to 1 (from any thread), and waits for the copy.
  void lower();
  void raise();

private:
  void set(uint32_t value);
  int device_;
  uint32_t* word_ = nullptr;   // device memory
  uint32_t* values_ = nullptr; // pinned host memory holding 0 and 1, the copies' sources
  void* stream_ = nullptr;
};

// Page-locked host memory, so that stream copies overlap and do not stage through a bounce buffer.
class PinnedBuffer {
public:
  explicit PinnedBuffer(uint64_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  unsigned char* data() const { return data_; }
  uint64_t size() const { return size_; }

private:
  unsigned char* data_ = nullptr;
  uint64_t size_ = 0;
};

// One large device allocation with stack-like sub-allocation: allocate() bumps, release_to() pops
// back to a mark (what a level-synchronous BFS needs). Thread-safe.
class DeviceArena {
public:
  DeviceArena(int device, uint64_t bytes);
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  // 256-byte aligned; throws std::runtime_error naming the sizes when the arena is exhausted.
  void* allocate(uint64_t bytes);
  uint64_t mark() const;
  void release_to(uint64_t mark);
  uint64_t capacity() const { return capacity_; }

private:
  int device_;
  unsigned char* base_ = nullptr;
  uint64_t capacity_ = 0;
  uint64_t block_size_ = 0; // of the allocation, kept memory may be larger than the capacity
  uint64_t used_ = 0;
  mutable std::mutex mutex_;
};

} // namespace gsdk::core
