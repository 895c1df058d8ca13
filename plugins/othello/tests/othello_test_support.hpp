// othello_test_support.hpp - what several othello tests need: the game instance under a convention,
// exact_empties, playout policy and evaluation (through the plugin's own tables, linked into the test) and a playout
// summary.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/playout_request.hpp"
#include "gsdk/playout_summary.hpp"
#include "linked_plugin.hpp"
#include "rules/endgame.hpp"

namespace othello::test {

inline std::unique_ptr<gsdk::core::GameInstance> make_game(const char* convention = "standard",
                                                           int64_t exact_empties = 0,
                                                           const char* playout_policy = "random",
                                                           const char* evaluation = "patterns",
                                                           const char* weights = "") {
  const gsdk_param_value values[] = {{"perft_convention", GSDK_PARAM_STRING, 0, 0, 0.0, convention},
                                     {"exact_empties", GSDK_PARAM_INT, 0, exact_empties, 0.0, nullptr},
                                     {"playout_policy", GSDK_PARAM_STRING, 0, 0, 0.0, playout_policy},
                                     {"evaluation", GSDK_PARAM_STRING, 0, 0, 0.0, evaluation},
                                     {"weights", GSDK_PARAM_STRING, 0, 0, 0.0, weights}};
  return std::make_unique<gsdk::core::GameInstance>(gsdk::test::linked_plugin_tables("othello"),
                                                    std::vector<gsdk_param_value>(std::begin(values), std::end(values)));
}

// Positions from random games with `empty` squares left, the side to move able to move.
inline std::vector<Position> late_positions(uint64_t seed, uint32_t empty, int count) {
  std::mt19937_64 random(seed);
  std::vector<Position> found;
  while (static_cast<int>(found.size()) < count) {
    Position p = start_position();
    while (!game_over(p) && empty_count(p) > empty) {
      const Bitboard moves = legal_moves(p);
      if (!moves) {
        pass(p);
        continue;
      }
      play(p, nth_square(moves, static_cast<uint32_t>(random() % gsdk::bits::popcount64(moves))));
    }
    if (!game_over(p) && legal_moves(p) && empty_count(p) == empty) found.push_back(p);
  }
  return found;
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

// Playouts [first, first + count) of seed from start (NULL: the initial position) through the CPU
// playout table, added into `into`.
inline void run_cpu_playouts(const gsdk::core::GameInstance& game, uint64_t seed, uint64_t first, uint64_t count,
                             const void* start, Summary& into) {
  const gsdk_playout_request r = gsdk::playout_request(seed, first, count, start);
  char error[256] = {};
  ASSERT_EQ(game.tables().cpu_playouts->run(game.handle(), &r, &into.s, error, sizeof error), GSDK_OK) << error;
}

} // namespace othello::test
