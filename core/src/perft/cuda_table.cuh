// cuda_table.cuh - a GPU's perft transposition table: one cudaMalloc'd array of table_bucket.hpp buckets, looked up
// and filled by the hashed levels of the breadth-first engine, shared by the engines of its device. Device code
// for the core's CUDA perft files, which alone include it.
//
// A bucket is one 64-byte line read as four 16-byte loads. Lookups and stores of one level run in separate
// kernels, and the engines of one device may run at once on their streams: a slot two writers race for may tear,
// which its check turns into a miss (table_bucket.hpp). The counters (look-ups, hits, stores, fills) are summed
// per warp and added once per warp.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gsdk/core/perft/cuda_perft.hpp"
#include "perft/state_key.hpp"
#include "perft/table_bucket.hpp"

namespace gsdk::core::cuda_table {

inline constexpr unsigned kFullWarp = 0xffffffffu;

enum Counter : int { kProbes = 0, kHits = 1, kStores = 2, kFills = 3, kCounters = 4 };

// What a kernel needs of the table (passed by value).
struct View {
  perft_table::Slot* slots = nullptr; // buckets * kSlots
  uint64_t buckets = 0;
  unsigned long long* counters = nullptr; // kCounters
};

__device__ __forceinline__ perft_table::Slot load_slot(const perft_table::Slot* slot) {
  const ulonglong2 words = *reinterpret_cast<const ulonglong2*>(slot);
  return {words.x, words.y};
}

// Adds `value` from every lane that has one to counters[which], one atomic per warp (the whole warp calls it).
__device__ __forceinline__ void count(const View& table, int which, unsigned value) {
  for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_down_sync(kFullWarp, value, offset);
  if ((threadIdx.x & 31) == 0 && value != 0) atomicAdd(&table.counters[which], static_cast<unsigned long long>(value));
}

__device__ __forceinline__ bool probe(const View& table, const perft_key::Key& key, uint64_t& count) {
  const perft_table::Slot* bucket = table.slots + perft_table::bucket_of(key, table.buckets) * perft_table::kSlots;
  for (uint32_t i = 0; i < perft_table::kSlots; ++i) {
    const perft_table::Slot slot = load_slot(bucket + i);
    if (perft_table::holds(slot, key)) {
      count = perft_table::count_of(slot);
      return true;
    }
  }
  return false;
}

// Returns 0 when nothing was written, 1 when a slot was, 2 when an empty one was.
__device__ __forceinline__ unsigned store(const View& table, const perft_key::Key& key, uint64_t count) {
  const perft_table::Slot slot = perft_table::encode(key, count);
  if (perft_table::is_empty(slot)) return 0;
  perft_table::Slot* bucket = table.slots + perft_table::bucket_of(key, table.buckets) * perft_table::kSlots;
  perft_table::Slot slots[perft_table::kSlots];
  for (uint32_t i = 0; i < perft_table::kSlots; ++i) slots[i] = load_slot(bucket + i);
  const uint32_t v = perft_table::victim(slots, key);
  if (v == perft_table::kSlots) return 0;
  *reinterpret_cast<ulonglong2*>(bucket + v) = make_ulonglong2(slot.high, slot.low);
  return perft_table::is_empty(slots[v]) ? 2 : 1;
}

} // namespace gsdk::core::cuda_table

namespace gsdk::core {

struct CudaPerftTable::Impl {
  int device = 0;
  cuda_table::View view;
};

} // namespace gsdk::core
