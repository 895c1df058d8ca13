// host_table.hpp - the transposition table CPU workers share in a hashed perft: lock-free, fixed size, buckets of
// table_bucket.hpp. Internal to the core's perft.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "gsdk/core/perft/perft_hashing.hpp"
#include "perft/state_key.hpp"

namespace gsdk::core {

// What one worker did with the table; summed into PerftTableStats at the end.
struct TableCounters {
  uint64_t probes = 0, hits = 0, stores = 0, fills = 0; // fills: stores into an empty slot
};

class HostTable {
public:
  // At least one bucket; the memory is mapped on demand (pages the workers never touch cost nothing).
  // Throws std::runtime_error naming the size when the memory cannot be had.
  explicit HostTable(uint64_t bytes);
  ~HostTable();
  HostTable(const HostTable&) = delete;
  HostTable& operator=(const HostTable&) = delete;

  std::optional<uint64_t> probe(const perft_key::Key& key, TableCounters& counters) const;
  void store(const perft_key::Key& key, uint64_t count, TableCounters& counters);

  uint64_t bytes() const { return buckets_ * 64; }
  uint64_t slots() const { return buckets_ * 4; }

private:
  uint64_t* words_ = nullptr; // buckets_ * 8 words: per slot {check, count}
  uint64_t buckets_ = 0;
};

// The table's size when the job names none: room for twice the positions a job of this many `nodes` (paths) at its
// hashed depths is expected to store, at least 1 MiB, within a share of the memory available (host_table.cpp).
uint64_t default_host_table_bytes(double nodes);

} // namespace gsdk::core
