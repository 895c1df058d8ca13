// env_array.cpp - the memory of the arrays a VectorEnv hands out.
#include "gsdk/core/environments/env_array.hpp"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <numeric>
#include <stdexcept>

#include "environments/cuda_env_stream.hpp"

namespace gsdk::core {

namespace {

// Cache-line alignment, which DLPack consumers and SIMD loops both like.
constexpr uint64_t kHostAlignment = 64;

// Host blocks one cache keeps: a step's five arrays, the random actions, and those of the step before, which a
// caller often still holds while the next step runs.
constexpr size_t kKeptBlocks = 16;

uint64_t byte_count(ElementType type, const std::vector<uint64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), uint64_t{element_bytes(type)}, std::multiplies<>());
}

uint64_t host_block_bytes(uint64_t bytes) {
  const uint64_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  return rounded == 0 ? kHostAlignment : rounded;
}

void* allocate_host_block(uint64_t bytes) {
  void* block = std::aligned_alloc(kHostAlignment, bytes);
  if (!block) throw std::bad_alloc();
  return block;
}

} // namespace

uint32_t element_bytes(ElementType type) {
  return type == ElementType::uint8 ? 1 : 4;
}

HostBlockCache::~HostBlockCache() {
  for (const Block& block : kept_) std::free(block.data);
}

void* HostBlockCache::take(uint64_t bytes) {
  {
    std::lock_guard lock(mutex_);
    for (auto it = kept_.begin(); it != kept_.end(); ++it) {
      if (it->bytes != bytes) continue;
      void* block = it->data;
      kept_.erase(it);
      return block;
    }
  }
  return allocate_host_block(bytes);
}

void HostBlockCache::give(void* block, uint64_t bytes) noexcept {
  {
    std::lock_guard lock(mutex_);
    if (kept_.size() < kKeptBlocks) {
      kept_.push_back({block, bytes});
      return;
    }
  }
  std::free(block);
}

EnvArray::EnvArray(ElementType type, std::vector<uint64_t> shape)
    : type_(type), shape_(std::move(shape)), bytes_(byte_count(type_, shape_)) {
  data_ = allocate_host_block(host_block_bytes(bytes_));
  std::memset(data_, 0, bytes_);
}

EnvArray::EnvArray(ElementType type, std::vector<uint64_t> shape, std::shared_ptr<HostBlockCache> cache)
    : type_(type), shape_(std::move(shape)), bytes_(byte_count(type_, shape_)), cache_(std::move(cache)) {
  data_ = cache_->take(host_block_bytes(bytes_));
}

EnvArray::EnvArray(ElementType type, std::vector<uint64_t> shape, std::shared_ptr<CudaEnvStream> stream)
    : type_(type), shape_(std::move(shape)), bytes_(byte_count(type_, shape_)), stream_(std::move(stream)) {
  data_ = stream_->allocate(bytes_);
}

EnvArray::~EnvArray() {
  if (stream_)
    stream_->release(data_);
  else if (cache_)
    cache_->give(data_, host_block_bytes(bytes_));
  else
    std::free(data_);
}

int32_t EnvArray::device() const {
  return stream_ ? stream_->device() : -1;
}

void copy_to_host(const EnvArray& array, void* destination) {
  if (array.place() == MemoryPlace::host) {
    std::memcpy(destination, array.data(), array.bytes());
    return;
  }
  array.stream().copy(destination, array.data(), array.bytes());
  array.stream().synchronize();
}

} // namespace gsdk::core
