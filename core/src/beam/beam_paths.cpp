// beam_paths.cpp - the move sequences of a beam's states (beam_paths.hpp).
#include "beam/beam_paths.hpp"

#include <algorithm>
#include <stdexcept>

namespace gsdk::core {

namespace {

// Nodes held before the first compaction, and at least this many more than the survivors of one before the next:
// compactions then cost a constant share of the levels' own work.
constexpr size_t kSlack = size_t{1} << 16;

} // namespace

void BeamPaths::reset(std::span<const uint32_t> start) {
  start_.assign(start.begin(), start.end());
  nodes_.clear();
  beam_.assign(1, kStart);
  compact_above_ = kSlack;
}

void BeamPaths::advance(std::span<const BeamChild> kept) {
  if (nodes_.size() + kept.size() >= kStart) throw std::length_error("a beam's move tree outgrew 2^32 nodes");
  std::vector<uint32_t> next(kept.size());
  for (size_t j = 0; j < kept.size(); ++j) {
    next[j] = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(Node{beam_.at(kept[j].parent), kept[j].move});
  }
  beam_ = std::move(next);
  if (nodes_.size() > compact_above_) compact();
}

std::vector<uint32_t> BeamPaths::moves_to(uint32_t place, uint32_t last) const {
  std::vector<uint32_t> moves = moves_of(place);
  moves.push_back(last);
  return moves;
}

std::vector<uint32_t> BeamPaths::moves_of(uint32_t place) const {
  std::vector<uint32_t> reversed;
  for (uint32_t node = beam_.at(place); node != kStart; node = nodes_[node].parent)
    reversed.push_back(nodes_[node].move);
  std::vector<uint32_t> moves = start_;
  moves.insert(moves.end(), reversed.rbegin(), reversed.rend());
  return moves;
}

void BeamPaths::compact() {
  // A node's parent was added before it, so one pass from the last node down marks every ancestor of the beam.
  std::vector<uint8_t> live(nodes_.size(), 0);
  for (const uint32_t node : beam_)
    if (node != kStart) live[node] = 1;
  for (size_t i = nodes_.size(); i-- > 0;)
    if (live[i] && nodes_[i].parent != kStart) live[nodes_[i].parent] = 1;
  std::vector<uint32_t> renumbered(nodes_.size(), kStart);
  size_t kept = 0;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!live[i]) continue;
    const Node node = nodes_[i];
    renumbered[i] = static_cast<uint32_t>(kept);
    nodes_[kept++] = Node{node.parent == kStart ? kStart : renumbered[node.parent], node.move};
  }
  nodes_.resize(kept);
  for (uint32_t& node : beam_)
    if (node != kStart) node = renumbered[node];
  compact_above_ = 2 * kept + kSlack;
}

} // namespace gsdk::core
