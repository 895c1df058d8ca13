// cuda_memory_shelf.cpp - the shelf of device blocks between runs (cuda_memory_shelf.hpp) and KeepCudaMemory
// (cuda_devices.hpp), for CUDA builds.
#include "cuda_memory_shelf.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "gsdk/core/runtime/cuda_devices.hpp"

namespace gsdk::core {

namespace shelf {
namespace {

struct Block {
  int device;
  void* data;
  uint64_t size;
};

struct Shelf {
  std::mutex mutex;
  int keepers = 0; // live KeepCudaMemory objects
  std::vector<Block> blocks;
};

Shelf& the_shelf() {
  static Shelf shelf;
  return shelf;
}

void free_block(const Block& block) {
  cudaSetDevice(block.device);
  cudaFree(block.data);
}

// Frees the device's shelved blocks (all devices' when device < 0); under the shelf's mutex.
void free_shelved(Shelf& shelf, int device) {
  std::vector<Block> kept;
  for (const Block& block : shelf.blocks) {
    if (device < 0 || block.device == device)
      free_block(block);
    else
      kept.push_back(block);
  }
  shelf.blocks = std::move(kept);
}

} // namespace

void* take_device(int device, uint64_t bytes, uint64_t* size) {
  Shelf& shelf = the_shelf();
  const std::lock_guard lock(shelf.mutex);
  auto best = shelf.blocks.end();
  for (auto it = shelf.blocks.begin(); it != shelf.blocks.end(); ++it)
    if (it->device == device && it->size >= bytes && (best == shelf.blocks.end() || it->size < best->size)) best = it;
  if (best == shelf.blocks.end()) return nullptr;
  void* data = best->data;
  *size = best->size;
  shelf.blocks.erase(best);
  return data;
}

void put_device(int device, void* block, uint64_t size) {
  Shelf& shelf = the_shelf();
  const std::lock_guard lock(shelf.mutex);
  const Block returned{device, block, size};
  // A device with a failed kernel cannot be trusted with the next run's memory: CUDA gets the block back.
  if (shelf.keepers == 0 || cudaSetDevice(device) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    free_block(returned);
    return;
  }
  shelf.blocks.push_back(returned);
}

void* allocate_device(int device, uint64_t bytes, const char* what) {
  if (cudaSetDevice(device) != cudaSuccess)
    throw std::runtime_error(fmt::format("CUDA device {}: cudaSetDevice failed", device));
  void* data = nullptr;
  cudaError_t status = cudaMalloc(&data, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError(); // clears the failed allocation's error
    Shelf& shelf = the_shelf();
    {
      const std::lock_guard lock(shelf.mutex);
      free_shelved(shelf, device);
    }
    cudaSetDevice(device);
    status = cudaMalloc(&data, bytes);
  }
  if (status != cudaSuccess)
    throw std::runtime_error(fmt::format("CUDA device {}: cannot allocate {} of {} bytes: {}", device, what, bytes,
                                         cudaGetErrorString(status)));
  return data;
}

uint64_t device_bytes(int device) {
  Shelf& shelf = the_shelf();
  const std::lock_guard lock(shelf.mutex);
  uint64_t bytes = 0;
  for (const Block& block : shelf.blocks)
    if (block.device == device) bytes += block.size;
  return bytes;
}

} // namespace shelf

KeepCudaMemory::KeepCudaMemory() {
  shelf::Shelf& shelf = shelf::the_shelf();
  const std::lock_guard lock(shelf.mutex);
  ++shelf.keepers;
}

uint64_t cuda_memory_kept(int device) {
  return shelf::device_bytes(device);
}

KeepCudaMemory::~KeepCudaMemory() {
  shelf::Shelf& shelf = shelf::the_shelf();
  const std::lock_guard lock(shelf.mutex);
  if (--shelf.keepers == 0) shelf::free_shelved(shelf, -1);
}

} // namespace gsdk::core
