// snake_test_support.hpp - what several snake tests need: the game under given parameters, both as the
// rules class itself and through the plugin's own tables (linked into the test), a playout summary with
// its histogram, a CPU playout request, and NMCS settings from start moves.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/playout_request.hpp"
#include "gsdk/playout_summary.hpp"
#include "linked_plugin.hpp"
#include "snake_game.hpp"

namespace snake::test {

// NMCS of `level` for restarts + 1 searches, `side_by_side` at once, from `starts` (none: the initial state).
inline gsdk::core::NmcsSettings nmcs_settings(uint32_t level, uint32_t restarts, uint32_t side_by_side,
                                              std::vector<std::vector<uint32_t>> starts = {}) {
  gsdk::core::NmcsSettings settings;
  settings.level = level;
  settings.budget.restarts = restarts;
  settings.budget.searches_in_parallel = side_by_side;
  settings.starts = std::move(starts);
  return settings;
}

struct Settings {
  uint32_t dimension = 8;
  bool symmetry_breaking = true;
  const char* policy = "uniform";
  const char* blocked_subcubes = "";
  const char* evaluation = "reachable";
};

inline std::vector<gsdk_param_value> param_values(const Settings& s) {
  return {{"dimension", GSDK_PARAM_INT, 0, s.dimension, 0.0, nullptr},
          {"symmetry_breaking", GSDK_PARAM_BOOL, 0, s.symmetry_breaking ? 1 : 0, 0.0, nullptr},
          {"policy", GSDK_PARAM_STRING, 0, 0, 0.0, s.policy},
          {"blocked_subcubes", GSDK_PARAM_STRING, 0, 0, 0.0, s.blocked_subcubes},
          {"evaluation", GSDK_PARAM_STRING, 0, 0, 0.0, s.evaluation}};
}

inline Game make_rules(const Settings& s) {
  const std::vector<gsdk_param_value> values = param_values(s);
  return Game(gsdk::Params(values.data(), static_cast<uint32_t>(values.size())));
}

inline std::unique_ptr<gsdk::core::GameInstance> make_game(const Settings& s) {
  return std::make_unique<gsdk::core::GameInstance>(gsdk::test::linked_plugin_tables("snake"), param_values(s));
}

// A reset summary over the game's lengths 0..length_bound.
struct Summary {
  std::vector<uint64_t> histogram;
  gsdk_playout_summary s{};
  explicit Summary(const gsdk::core::GameInstance& game) : histogram(game.histogram_bins()) {
    s.histogram = histogram.data();
    s.histogram_bins = static_cast<uint32_t>(histogram.size());
    gsdk::reset_summary(s);
  }
};

inline gsdk_playout_request request(uint64_t seed, uint64_t first, uint64_t count, const void* start = nullptr) {
  return gsdk::playout_request(seed, first, count, start);
}

inline void run_cpu(const gsdk::core::GameInstance& game, const gsdk_playout_request& r, Summary& into) {
  char error[256] = {};
  ASSERT_EQ(game.tables().cpu_playouts->run(game.handle(), &r, &into.s, error, sizeof error), GSDK_OK) << error;
}

} // namespace snake::test
