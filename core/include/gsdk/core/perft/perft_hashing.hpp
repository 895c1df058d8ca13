// perft_hashing.hpp - what a hashed perft job is asked for (PerftHashing) and what its tables report
// (PerftHashStats).
//
// Hashed perft caches subtree counts under (position key, remaining depth): the key is 128 bits of a hash of the
// state's bytes, after the game's gsdk.perft_keys.v1 table (when it has one) has made the bytes that never change
// a subtree canonical (chess's move clocks). The root's expansion on the host merges equal states exactly (by their
// canonical bytes, with how many paths lead to each), CPU workers share one lock-free table, and each GPU keeps its
// own table beside the breadth-first engine, which also merges equal states within each level. Counts never depend
// on the tables: a table only decides which subtrees are counted again (docs/perf/chess_perft.md, "Hashed perft",
// states the probability that two positions share a key).
#pragma once

#include <cstdint>

namespace gsdk::core {

struct PerftHashing {
  bool enabled = false;
  uint64_t host_table_bytes = 0;   // the CPU workers' shared table; 0: the default (a share of available memory)
  uint64_t device_table_bytes = 0; // each GPU's table; 0: the default (the GPU's free memory beside its arenas)
};

// One kind of table (the CPU workers', or every GPU's added together).
struct PerftTableStats {
  uint64_t bytes = 0;  // memory the table holds
  uint64_t slots = 0;  // counts it can hold
  uint64_t filled = 0; // slots holding a count when the job ended
  uint64_t probes = 0; // look-ups
  uint64_t hits = 0;   // look-ups that found the count
  uint64_t stores = 0; // counts written
};

struct PerftHashStats {
  bool enabled = false;
  uint64_t paths = 0;     // move sequences from the root to the states it was cut into
  uint64_t subtrees = 0;  // the distinct states among them (the subtrees counted)
  PerftTableStats host;   // the CPU workers' table
  PerftTableStats device; // the GPUs' tables, summed
  uint64_t frontier_states = 0; // states of the GPU engines' hashed levels
  uint64_t duplicates = 0;      // of those, merged with an equal state of the same level
};

} // namespace gsdk::core
