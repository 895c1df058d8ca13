// score_table.hpp - adding a CUDA playout kernel's result to a summary: each score's count and the lowest
// playout number that reached it (all an exact summary needs), checked against the playouts asked for. Every
// CUDA playouts table ends with this fold: the SDK's template (playout_tables.cuh) and kernels of a game's own.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "gsdk/playout_summary.hpp"
#include "gsdk/plugin.hpp"

namespace gsdk::cuda {

// counts[b] playouts scored score_min + b, the lowest of them firsts[b]; summary's histogram has counts' bins.
// A total other than `expected` means the device result is inconsistent: GSDK_ERR_DEVICE, naming `owner`.
inline void add_score_table(gsdk_playout_summary& summary, std::span<const unsigned long long> counts,
                            std::span<const unsigned long long> firsts, int64_t score_min, uint64_t expected,
                            const char* owner) {
  uint64_t played = 0;
  for (size_t bin = 0; bin < counts.size(); ++bin) {
    if (counts[bin] == 0) continue;
    summary.histogram[bin] += counts[bin];
    played += counts[bin];
    record_extremes(summary, score_min + static_cast<int64_t>(bin), firsts[bin]);
  }
  if (played != expected)
    throw PluginError(std::string(owner) + ": the kernel counted " + std::to_string(played) + " playouts of " +
                          std::to_string(expected) + " (device result inconsistent)",
                      GSDK_ERR_DEVICE);
  summary.playouts += played;
}

} // namespace gsdk::cuda
