// env_array.hpp - one array a VectorEnv hands out (observations, rewards, masks...): it owns its memory, on the host
// or on a CUDA device, so that a caller may keep it as long as it likes, whatever the environment does next.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace gsdk::core {

enum class MemoryPlace { host, cuda };
// uint32: random_actions' codes (an addition to the element types the Python binding was first written against).
enum class ElementType { uint8, int32, float32, uint32 };

// Bytes of one element.
uint32_t element_bytes(ElementType type);

class CudaEnvStream;

// Host blocks that the arrays of one environment give back when they die, handed to its next arrays of the same
// size: a step's arrays are megabytes, which the allocator would otherwise map, fault in and unmap every step.
// Thread-safe: arrays die wherever their last owner lets go of them.
class HostBlockCache {
public:
  HostBlockCache() = default;
  ~HostBlockCache();
  HostBlockCache(const HostBlockCache&) = delete;
  HostBlockCache& operator=(const HostBlockCache&) = delete;

  // A 64-byte aligned block of `bytes` (a multiple of 64), uninitialised.
  void* take(uint64_t bytes);
  // Keeps the block for a later take, or frees it when enough are kept.
  void give(void* block, uint64_t bytes) noexcept;

private:
  struct Block {
    void* data;
    uint64_t bytes;
  };
  std::mutex mutex_;
  std::vector<Block> kept_;
};

// Host memory is 64-byte aligned; CUDA device memory is allocated and freed stream-ordered (cudaMallocAsync and
// cudaFreeAsync on the environment's stream, which the array keeps alive) so that a step allocates cheaply.
class EnvArray {
public:
  // Host memory, zeroed.
  EnvArray(ElementType type, std::vector<uint64_t> shape);
  // Host memory from (and back to) `cache`, not initialised: for arrays their writer fills completely.
  EnvArray(ElementType type, std::vector<uint64_t> shape, std::shared_ptr<HostBlockCache> cache);
  // Device memory of the stream's device, not initialised.
  EnvArray(ElementType type, std::vector<uint64_t> shape, std::shared_ptr<CudaEnvStream> stream);
  ~EnvArray();
  EnvArray(const EnvArray&) = delete;
  EnvArray& operator=(const EnvArray&) = delete;

  void* data() const { return data_; }
  uint64_t bytes() const { return bytes_; }
  MemoryPlace place() const { return stream_ ? MemoryPlace::cuda : MemoryPlace::host; }
  // The CUDA ordinal, -1 on the host.
  int32_t device() const;
  ElementType type() const { return type_; }
  const std::vector<uint64_t>& shape() const { return shape_; }
  uint64_t elements() const { return bytes_ / element_bytes(type_); }
  template <typename T> T* as() const { return static_cast<T*>(data_); }
  // The stream a device array lives on (only for place() == cuda).
  CudaEnvStream& stream() const { return *stream_; }

private:
  ElementType type_;
  std::vector<uint64_t> shape_;
  uint64_t bytes_ = 0;
  void* data_ = nullptr;
  std::shared_ptr<CudaEnvStream> stream_; // null on the host
  std::shared_ptr<HostBlockCache> cache_; // where a host block goes back, if anywhere
};

// Copies the array's bytes() into host memory, from wherever it lives; waits for the copy.
void copy_to_host(const EnvArray& array, void* destination);

} // namespace gsdk::core
