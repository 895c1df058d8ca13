// rank_devices.cpp - a rank's share of its node's devices (rank_devices.hpp).
#include "distribute/rank_devices.hpp"

#include <algorithm>
#include <numeric>

namespace gsdk::host {

RunSettings rank_run_settings(const RunSettings& settings, const RankPlace& place, int node_gpus,
                              unsigned node_threads) {
  RunSettings mine = settings;
  const unsigned ranks_here = static_cast<unsigned>(std::max(1, place.local_ranks));
  if (settings.threads == 0) mine.threads = std::max(1u, node_threads / ranks_here);
  std::vector<int> gpus = settings.gpus;
  if (gpus.empty()) {
    gpus.resize(static_cast<size_t>(std::max(0, node_gpus)));
    std::iota(gpus.begin(), gpus.end(), 0);
  }
  if (gpus.empty()) return mine;
  mine.gpus.clear();
  const size_t r = static_cast<size_t>(place.local_rank);
  if (ranks_here > gpus.size()) {
    mine.gpus.push_back(gpus[r % gpus.size()]);
    return mine;
  }
  for (size_t i = r; i < gpus.size(); i += ranks_here) mine.gpus.push_back(gpus[i]);
  return mine;
}

} // namespace gsdk::host
