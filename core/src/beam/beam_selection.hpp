// beam_selection.hpp - the selection of a beam level on the CPU: which scored children go on, by the rules of
// beam_search.hpp's top comment. The GPU's (cuda_beam_device.cu) computes the same with radix sorts; tests compare
// the two. Internal to the core's beam.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gsdk/core/beam/beam_search.hpp"

namespace gsdk::core {

// A level's non-terminal children, in their place order (parent's place, then legal-move order).
struct ScoredChildren {
  std::span<const int32_t> values;
  std::span<const uint64_t> keys;
  std::span<const uint32_t> parents;
};

struct Selection {
  std::vector<uint32_t> kept; // places in `children` of the next beam, in its order
  uint64_t duplicates = 0;    // over the whole level, not only up to the width
  uint64_t capped = 0;
};

// `parent_count`: the beam's width before the level (parents are below it).
Selection select_children(const ScoredChildren& children, uint32_t parent_count, const BeamSelectionRules& rules);

} // namespace gsdk::core
