// root_expansion.hpp - how a perft job cuts its root into subtrees on the host: level by level through the
// per-state rules, until there are enough subtrees for its workers. Internal to the core's perft.
//
// A plain expansion keeps every path (subtree i is the state after one sequence of moves). A distinct expansion (a
// hashed job's) merges equal states, compared by their canonical bytes (gsdk.perft_keys.v1, else the raw bytes),
// so each subtree is one position counted once, standing for every path that reaches it: its weights say how many
// paths come from each root move. A position's count times its paths, summed, is the root's count, exactly.
// Either expansion is a function of the root, the depth, the target and its kind alone, so that subtree ids mean the
// same subtrees in every process and in a resumed job.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

struct SubtreeWeight {
  uint32_t root_move; // index into the root's legal moves
  uint64_t paths;     // move sequences from that root move to the subtree's state
};

struct RootExpansion {
  uint32_t depth = 0;             // remaining depth of every subtree
  std::vector<StateBlob> states;  // one per subtree
  std::vector<uint64_t> first;    // subtree i's weights are weights[first[i] .. first[i + 1])
  std::vector<SubtreeWeight> weights;
  uint64_t paths = 0;             // all paths to the subtrees (their weights' sum)

  size_t size() const { return states.size(); }
  // The paths to subtree i, whatever their root moves.
  uint64_t paths_to(size_t i) const;
};

// Expands `root` (whose legal moves are `root_moves`) for a job of `depth` >= 2 until at least `target` subtrees,
// but always leaves at least one ply to count, and keeps the last level whose states fit a gibibyte.
RootExpansion expand_root(const GameInstance& game, const StateBlob& root, const std::vector<uint32_t>& root_moves,
                          uint32_t depth, uint64_t target, bool distinct);

} // namespace gsdk::core
