// cuda_table.cu - a GPU's perft transposition table (CudaPerftTable in cuda_perft.hpp; layout in
// table_bucket.hpp, device access in cuda_table.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gsdk/core/perft/cuda_perft.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "perft/cuda_table.cuh"

namespace gsdk::core {

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
// Of the free memory beside the engines' arenas, the share a table takes by default: CUDA, CUB and the plugin keep
// some for themselves, and a device shared with another process needs room.
constexpr double kDefaultShareOfFree = 0.9;

void check(int device, cudaError_t status, const std::string& step) {
  if (status != cudaSuccess)
    throw std::runtime_error("perft transposition table on CUDA device " + std::to_string(device) + ": " + step +
                             " failed: " + cudaGetErrorString(status));
}

} // namespace

CudaPerftTable::CudaPerftTable(int device, uint64_t bytes) : impl_(std::make_unique<Impl>()) {
  impl_->device = device;
  const uint64_t buckets = std::max<uint64_t>(1, bytes / perft_table::kBucketBytes);
  check(device, cudaSetDevice(device), "cudaSetDevice");
  void* memory = nullptr;
  const cudaError_t status = cudaMalloc(&memory, buckets * perft_table::kBucketBytes + 64);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error("perft transposition table on CUDA device " + std::to_string(device) + ": cannot take " +
                             std::to_string((buckets * perft_table::kBucketBytes + kMiB - 1) / kMiB) +
                             " MiB of device memory (" + cudaGetErrorString(status) + "; --gpu-hash-mb sets less)");
  }
  impl_->view.slots = static_cast<perft_table::Slot*>(memory);
  impl_->view.buckets = buckets;
  impl_->view.counters =
      reinterpret_cast<unsigned long long*>(static_cast<unsigned char*>(memory) + buckets * perft_table::kBucketBytes);
  check(device, cudaMemset(memory, 0, buckets * perft_table::kBucketBytes + 64), "clearing the table");
}

CudaPerftTable::~CudaPerftTable() {
  cudaSetDevice(impl_->device);
  cudaFree(impl_->view.slots);
}

int CudaPerftTable::device() const {
  return impl_->device;
}

PerftTableStats CudaPerftTable::stats() const {
  unsigned long long counters[cuda_table::kCounters] = {};
  check(impl_->device, cudaSetDevice(impl_->device), "cudaSetDevice");
  check(impl_->device, cudaDeviceSynchronize(), "waiting for the engines");
  check(impl_->device, cudaMemcpy(counters, impl_->view.counters, sizeof counters, cudaMemcpyDeviceToHost),
        "reading the counters");
  const uint64_t slots = impl_->view.buckets * perft_table::kSlots;
  return {impl_->view.buckets * perft_table::kBucketBytes, slots,
          std::min<uint64_t>(counters[cuda_table::kFills], slots), counters[cuda_table::kProbes],
          counters[cuda_table::kHits], counters[cuda_table::kStores]};
}

uint64_t default_cuda_table_bytes(int device, double nodes, uint64_t reserved) {
  const uint64_t free = cuda_free_memory(device);
  const double room = free > reserved ? kDefaultShareOfFree * static_cast<double>(free - reserved) : 0.0;
  const double wanted = 2.0 * nodes * 16.0;
  const double bytes = std::clamp(wanted, static_cast<double>(kMiB), std::max(room, static_cast<double>(kMiB)));
  return static_cast<uint64_t>(bytes) / kMiB * kMiB;
}

} // namespace gsdk::core
