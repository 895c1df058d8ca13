// host_table.cpp - the CPU workers' shared perft transposition table (host_table.hpp).
#include "perft/host_table.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include <fmt/format.h>

#include "perft/table_bucket.hpp"

namespace gsdk::core {

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
// Of the memory available when the job starts, the most a table takes by default: the rest is the workers', the
// expansion's and the other processes'.
constexpr double kDefaultShareOfAvailable = 0.25;
// Positions a count stores, per path to its hashed depths: transpositions and the table itself take most paths off
// (chess startpos 8: 10.3 M stores for 2.2e8 paths to depth 2, 1/21). A table sized for every path is 16x larger
// than it needs (8x with the margin kept here), and on a CPU that is not free: its look-ups miss the TLB and its pages fault in (startpos 8 on the
// two cores here: 20.1 s with 3.3 GiB, 9.9 s with 1 GiB, 8.8 s with 256 MiB).
constexpr double kStoresPerPath = 1.0 / 8;
constexpr uint64_t kMinDefaultBytes = uint64_t{1} << 20;

uint64_t load(const uint64_t& word) {
  return std::atomic_ref<const uint64_t>(word).load(std::memory_order_relaxed);
}

void save(uint64_t& word, uint64_t value) {
  std::atomic_ref<uint64_t>(word).store(value, std::memory_order_relaxed);
}

uint64_t available_memory() {
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : uint64_t{1} << 30;
}

} // namespace

HostTable::HostTable(uint64_t bytes) : buckets_(std::max<uint64_t>(1, bytes / perft_table::kBucketBytes)) {
  const uint64_t size = buckets_ * perft_table::kBucketBytes;
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED)
    throw std::runtime_error(fmt::format("cannot map {} MiB for the perft transposition table (--hash-mb sets less)",
                                         (size + kMiB - 1) / kMiB));
  // Look-ups land anywhere in the table: huge pages spare most of their TLB misses, where the kernel allows them.
  madvise(memory, size, MADV_HUGEPAGE);
  words_ = static_cast<uint64_t*>(memory);
}

HostTable::~HostTable() {
  munmap(words_, buckets_ * perft_table::kBucketBytes);
}

std::optional<uint64_t> HostTable::probe(const perft_key::Key& key, TableCounters& counters) const {
  ++counters.probes;
  const uint64_t* bucket = words_ + perft_table::bucket_of(key, buckets_) * 2 * perft_table::kSlots;
  for (uint32_t i = 0; i < perft_table::kSlots; ++i) {
    const perft_table::Slot slot{load(bucket[2 * i]), load(bucket[2 * i + 1])};
    if (perft_table::holds(slot, key)) {
      ++counters.hits;
      return perft_table::count_of(slot);
    }
  }
  return std::nullopt;
}

void HostTable::store(const perft_key::Key& key, uint64_t count, TableCounters& counters) {
  uint64_t* bucket = words_ + perft_table::bucket_of(key, buckets_) * 2 * perft_table::kSlots;
  perft_table::Slot slots[perft_table::kSlots];
  for (uint32_t i = 0; i < perft_table::kSlots; ++i) slots[i] = {load(bucket[2 * i]), load(bucket[2 * i + 1])};
  const perft_table::Slot slot = perft_table::encode(key, count);
  if (perft_table::is_empty(slot)) return;
  const uint32_t v = perft_table::victim(slots, key);
  if (v == perft_table::kSlots) return;
  ++counters.stores;
  if (perft_table::is_empty(slots[v])) ++counters.fills;
  save(bucket[2 * v], slot.high);
  save(bucket[2 * v + 1], slot.low);
}

uint64_t default_host_table_bytes(double nodes) {
  const double wanted = 2.0 * nodes * kStoresPerPath * 16.0;
  const double cap = kDefaultShareOfAvailable * static_cast<double>(available_memory());
  const double floor = std::min(static_cast<double>(kMinDefaultBytes), cap);
  const double bytes = std::clamp(wanted, std::max(floor, static_cast<double>(kMiB)),
                                  std::max(cap, static_cast<double>(kMiB)));
  return static_cast<uint64_t>(bytes) / kMiB * kMiB;
}

} // namespace gsdk::core
