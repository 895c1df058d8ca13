// hashed_counter.hpp - how a CPU worker of a hashed perft counts one subtree: depth-first through the per-state
// rules, every position of at least hashed_depth plies to go looked up in the shared table and stored there once
// counted; a position of exactly hashed_depth plies that the table lacks is counted whole by the plugin's CPU perft
// table (or the generic recursion), as is everything below it. Internal to the core's perft.
//
// Why a floor: a look-up costs a key (a hash of the state's bytes) and a cache miss, and is only worth it where a hit
// saves more than that; below the floor a whole count is as cheap as the look-up (the driver's hashed_depth_on_cpu,
// measured in docs/perf/chess_perft.md, "Hashed perft").
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "gsdk/core/perft/perft.hpp"
#include "perft/host_table.hpp"

namespace gsdk::core {

class HashedCounter {
public:
  HashedCounter(const GameInstance& game, bool plugin_table, HostTable& table, uint32_t hashed_depth,
                const StopRequest* stop);

  // perft(state, depth) of a canonical state; nothing when the stop request was raised before the count was whole.
  // Throws std::runtime_error with the plugin's message when its table fails.
  std::optional<uint128> count(const StateBlob& state, uint32_t depth);

  const TableCounters& counters() const { return counters_; }

private:
  std::optional<uint128> count_at(const StateBlob& state, uint32_t depth, size_t ply);
  uint128 store(const perft_key::Key& key, uint128 leaves);

  const GameInstance& game_;
  bool plugin_table_;
  HostTable& table_;
  uint32_t hashed_depth_;
  const StopRequest* stop_;
  TableCounters counters_;
  // Per ply, grown on first use; deques, because callers up the recursion hold references into them.
  std::deque<std::vector<uint32_t>> moves_;
  std::deque<StateBlob> children_;
};

} // namespace gsdk::core
