// beam_paths.hpp - the move sequences of a beam's states, kept as a tree of (parent, move) nodes on the host: a
// level adds one node per state kept, and the branches no state of the beam descends from any more are dropped
// from time to time. A beam's states soon share long prefixes, so the tree stays near the beam's width plus its
// common stem, where keeping every state's moves would cost width x depth. Internal to the core's beam.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gsdk/core/beam/beam_search.hpp"

namespace gsdk::core {

class BeamPaths {
public:
  // A beam of one state, reached by `start` (a search's start moves).
  void reset(std::span<const uint32_t> start);
  // The beam after a level: state j is `kept[j]`'s child of the beam before it.
  void advance(std::span<const BeamChild> kept);
  // The moves from the initial state to the beam's state `place`, then `last`.
  std::vector<uint32_t> moves_to(uint32_t place, uint32_t last) const;
  // The moves from the initial state to the beam's state `place`.
  std::vector<uint32_t> moves_of(uint32_t place) const;
  uint32_t width() const { return static_cast<uint32_t>(beam_.size()); }
  // Nodes held now (for tests).
  size_t nodes() const { return nodes_.size(); }

private:
  static constexpr uint32_t kStart = UINT32_MAX; // the parent of a level-1 state: the search's start

  struct Node {
    uint32_t parent;
    uint32_t move;
  };

  // Drops the nodes no state of the beam descends from, keeping the others' order.
  void compact();

  std::vector<uint32_t> start_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> beam_; // each state's node, kStart for the start itself
  size_t compact_above_ = 0;
};

} // namespace gsdk::core
