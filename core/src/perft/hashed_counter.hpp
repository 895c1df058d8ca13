// hashed_counter.hpp - how a CPU worker of a hashed perft counts one subtree: depth-first through the per-state
// rules, every position of at least hashed_depth plies to go looked up in the shared table and stored there once
// counted; a position of exactly hashed_depth plies that the table lacks is counted whole by the plugin's CPU perft
// table (or the generic recursion), as is everything below it. Internal to the core's perft.
//
// Why a floor: a look-up costs a key (a hash of the state's bytes), an ABI call or two and a cache miss, about what
// the plugin's CPU perft counts kLeavesPerLookUp leaves in; it is worth it only where the hits save more leaves than
// that, on average over the look-ups. So the floor starts at 2 plies (the driver's kCpuHashedDepth) and, every
// kJudgedProbes look-ups at it, rises by one ply when they saved fewer leaves: chess stays at 2 (53% of the look-ups
// hit and save ~700 leaves each: startpos 8 makes 2.2e7 of them), Othello's rises (11% hits of ~90-leaf counts at 2
// plies; startpos 12 then makes 6.4e5 look-ups instead of 1.7e7), where at 2 plies it was slower hashed than not
// (6.9 s against 2.4 s). The counts never depend on the floor; only the work does.
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
  // Counts a look-up at the floor that saved `saved` leaves (0 for a miss), and raises the floor when they do not pay.
  void judge_floor(uint64_t saved);
  uint128 store(const perft_key::Key& key, uint128 leaves);

  const GameInstance& game_;
  bool plugin_table_;
  HostTable& table_;
  uint32_t hashed_depth_;
  const StopRequest* stop_;
  TableCounters counters_;
  static constexpr uint64_t kLeavesPerLookUp = 128; // about what a look-up costs, counted low: rises are for good
  static constexpr uint64_t kJudgedProbes = 65536; // enough for the table to warm up
  uint64_t floor_probes_ = 0;
  uint128 floor_saved_ = 0;
  // Per ply, grown on first use; deques, because callers up the recursion hold references into them.
  std::deque<std::vector<uint32_t>> moves_;
  std::deque<StateBlob> children_;
};

} // namespace gsdk::core
