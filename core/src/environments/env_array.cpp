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

uint64_t byte_count(ElementType type, const std::vector<uint64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), uint64_t{element_bytes(type)}, std::multiplies<>());
}

} // namespace

uint32_t element_bytes(ElementType type) {
  return type == ElementType::uint8 ? 1 : 4;
}

EnvArray::EnvArray(ElementType type, std::vector<uint64_t> shape)
    : type_(type), shape_(std::move(shape)), bytes_(byte_count(type_, shape_)) {
  const uint64_t rounded = (bytes_ + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  data_ = std::aligned_alloc(kHostAlignment, rounded == 0 ? kHostAlignment : rounded);
  if (!data_) throw std::bad_alloc();
  std::memset(data_, 0, bytes_);
}

EnvArray::EnvArray(ElementType type, std::vector<uint64_t> shape, std::shared_ptr<CudaEnvStream> stream)
    : type_(type), shape_(std::move(shape)), bytes_(byte_count(type_, shape_)), stream_(std::move(stream)) {
  data_ = stream_->allocate(bytes_);
}

EnvArray::~EnvArray() {
  if (stream_)
    stream_->release(data_);
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
