// subtree_counter.hpp - how a CPU worker counts one perft subtree: in calls short enough that a stop request is
// honoured within a fraction of a second (internal to the core's perft).
//
// The plugin's perft table counts a subtree in one call that cannot be interrupted, and a subtree at depth can
// take minutes. So a subtree whose depth is not known to count quickly is cut into its children (per-state
// moves), recursively, with a look at the stop request between children; a depth is known to count quickly once
// the longest call or cut seen at it took under the job's cpu_call_seconds (a tenth of a second). The first subtree
// thus costs one cut per level above the depth that counts quickly, the others only the cuts of the depths too slow to
// count whole, and every call still counts a tree of milliseconds or more, so the cuts' per-state calls do not show in
// the speed. The sum over the children is the subtree's count (perft's recursion), so the counts are those of whole
// calls.
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "gsdk/core/perft/perft.hpp"

namespace gsdk::core {

class SubtreeCounter {
public:
  // Counts with the plugin's CPU perft table when `plugin_table`, else with generic_perft; calls that took
  // `call_seconds` or longer are cut into their children from then on.
  SubtreeCounter(const GameInstance& game, bool plugin_table, const StopRequest* stop, double call_seconds);

  // perft(state, depth); nothing when the stop request was raised before the count was whole (what was counted
  // of it is dropped). Throws std::runtime_error with the plugin's message when its table fails.
  std::optional<uint128> count(const StateBlob& state, uint32_t depth);

private:
  std::optional<uint128> count_at(const StateBlob& state, uint32_t depth, size_t ply);
  uint128 count_whole(const StateBlob& state, uint32_t depth) const;

  const GameInstance& game_;
  bool plugin_table_;
  const StopRequest* stop_;
  double call_seconds_;
  std::vector<double> longest_seconds_; // per depth: the longest call or cut seen; < 0: none yet
  // Per ply of the cuts, grown on first use; deques, because callers up the recursion hold references into them.
  std::deque<std::vector<uint32_t>> moves_;
  std::deque<StateBlob> children_;
};

} // namespace gsdk::core
