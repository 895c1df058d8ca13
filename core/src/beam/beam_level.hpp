// beam_level.hpp - what the CPU and GPU beam devices share: the children a level holds, as place-ordered arrays,
// and how a level's selection turns into its report. Internal to the core's beam.
#pragma once

#include <cstdint>
#include <vector>

#include "beam/beam_selection.hpp"
#include "gsdk/core/beam/beam_search.hpp"

namespace gsdk::core {

// The next beam's children as (parent, move) from the selection's places among the non-terminal children.
inline std::vector<BeamChild> kept_children(const std::vector<uint32_t>& kept, const std::vector<uint32_t>& parents,
                                            const std::vector<uint32_t>& moves) {
  std::vector<BeamChild> children(kept.size());
  for (size_t j = 0; j < kept.size(); ++j) children[j] = BeamChild{parents[kept[j]], moves[kept[j]]};
  return children;
}

} // namespace gsdk::core
