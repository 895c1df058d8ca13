// beam_selection.cpp - the CPU selection of a beam level (beam_selection.hpp).
#include "beam/beam_selection.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "beam/beam_order.hpp"

namespace gsdk::core {

Selection select_children(const ScoredChildren& children, uint32_t parent_count, const BeamSelectionRules& rules) {
  const size_t n = children.values.size();
  std::vector<uint64_t> order_keys(n);
  for (size_t i = 0; i < n; ++i)
    order_keys[i] = beam_order::order_key(children.values[i], beam_order::tie(children.keys[i], rules.tie_seed));
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  // Order keys, then places: a total order, so std::sort needs no stability.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return order_keys[a] != order_keys[b] ? order_keys[a] < order_keys[b] : a < b;
  });

  Selection selection;
  std::unordered_set<uint64_t> seen;
  if (rules.dedup) seen.reserve(n);
  std::vector<uint32_t> kept_of_parent(rules.children_per_parent ? parent_count : 0, 0);
  for (const uint32_t i : order) {
    if (rules.dedup && !seen.insert(children.keys[i]).second) {
      ++selection.duplicates;
      continue;
    }
    if (rules.children_per_parent) {
      uint32_t& kept = kept_of_parent[children.parents[i]];
      if (kept == rules.children_per_parent) {
        ++selection.capped;
        continue;
      }
      ++kept;
    }
    if (selection.kept.size() < rules.width) selection.kept.push_back(i);
  }
  return selection;
}

} // namespace gsdk::core
