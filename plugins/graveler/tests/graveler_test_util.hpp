// graveler_test_util.hpp - helpers shared by graveler's tests: an owning summary, the per-battle
// scalar reference tally and Binomial(n, 1/4) probabilities computed independently of the plugin.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gsdk/playout_summary.hpp"
#include "graveler_game.hpp"
#include "graveler_rules.hpp"

namespace graveler::test {

// A gsdk_playout_summary with its own histogram.
struct Summary {
  explicit Summary(uint32_t bins) : histogram(bins, 0) {
    s.histogram = histogram.data();
    s.histogram_bins = bins;
    gsdk::reset_summary(s);
  }
  Summary(const Summary&) = delete;
  std::string describe() const {
    std::string text = "playouts=" + std::to_string(s.playouts) + " best=" + std::to_string(s.best_score) + "@" +
                       std::to_string(s.best_playout) + " worst=" + std::to_string(s.worst_score) + "@" +
                       std::to_string(s.worst_playout) + " histogram=";
    for (auto c : histogram) text += std::to_string(c) + ",";
    return text;
  }
  bool operator==(const Summary& o) const {
    return histogram == o.histogram && s.playouts == o.s.playouts && s.best_score == o.s.best_score &&
           s.best_playout == o.s.best_playout && s.worst_score == o.s.worst_score && s.worst_playout == o.s.worst_playout;
  }

  std::vector<uint64_t> histogram;
  gsdk_playout_summary s{};
};

// Battles [first, first + count) one by one through battle_ones (each with its own jump).
inline void reference_tally(const BattleLayout& layout, uint64_t seed, uint64_t first, uint64_t count, Summary& out,
                            int ones_offset = 0) {
  for (uint64_t b = first; b < first + count; ++b)
    gsdk::record_playout(out.s, battle_ones(seed, layout, b) + ones_offset, b, 0);
}

inline std::vector<double> binomial_quarter(int n) {
  std::vector<double> p(static_cast<size_t>(n) + 1);
  for (int k = 0; k <= n; ++k)
    p[static_cast<size_t>(k)] =
        std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(0.25) +
                 (n - k) * std::log(0.75));
  return p;
}

inline const int kRollCounts[] = {1, 2, 7, 8, 9, 16, 31, 32, 33, 40, 64, 100, 231, 255, 256, 1000, 1024};

// A graveler game with `rolls` rolls, as the host would create it.
inline graveler::Game make_game(int64_t rolls) {
  gsdk_param_value v{};
  v.name = "rolls";
  v.type = GSDK_PARAM_INT;
  v.int_value = rolls;
  return graveler::Game(gsdk::Params(&v, 1));
}

} // namespace graveler::test
