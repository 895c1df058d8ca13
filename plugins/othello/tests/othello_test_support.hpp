// othello_test_support.hpp - what several othello tests need: the game instance under a convention
// (through the plugin's own tables, linked into the test) and a playout summary with its histogram.
#pragma once

#include <memory>
#include <vector>

#include "gsdk/core/game_instance.hpp"
#include "gsdk/playout_summary.hpp"
#include "linked_plugin.hpp"

namespace othello::test {

inline std::unique_ptr<gsdk::core::GameInstance> make_game(const char* convention = "standard") {
  const gsdk_param_value value{"perft_convention", GSDK_PARAM_STRING, 0, 0, 0.0, convention};
  return std::make_unique<gsdk::core::GameInstance>(gsdk::test::linked_plugin_tables("othello"),
                                                    std::vector<gsdk_param_value>{value});
}

// A reset summary over Othello's 129 scores (-64..64).
struct Summary {
  std::vector<uint64_t> histogram = std::vector<uint64_t>(129);
  gsdk_playout_summary s{};
  Summary() {
    s.histogram = histogram.data();
    s.histogram_bins = 129;
    gsdk::reset_summary(s);
  }
};

} // namespace othello::test
