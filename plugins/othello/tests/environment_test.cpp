// environment_test.cpp - othello's vectorised environment on the CPU: move codes, the observation planes of known
// positions, and the batched step against stepping the per-state table (every convention, many finished games),
// with its refusals of bad actions and arrays.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "batched_steps_reference.hpp"
#include "cpu/environment_cpu.hpp"
#include "othello_test_support.hpp"
#include "rules/board_text.hpp"
#include "rules/environment.hpp"

namespace othello {
namespace {

using gsdk::test::plugin_table;

std::vector<uint8_t> observation_of(const gsdk::core::GameInstance& game, const Position& p) {
  const auto& table = plugin_table<gsdk_observations>(game, GSDK_TABLE_OBSERVATIONS);
  std::vector<uint8_t> observation(kObservationBytes);
  table.fill(game.handle(), &p, 1, observation.data());
  return observation;
}

// The squares set in one 64-byte plane.
std::set<uint32_t> squares_of(const std::vector<uint8_t>& observation, uint32_t plane) {
  std::set<uint32_t> squares;
  for (uint32_t s = 0; s < 64; ++s) {
    EXPECT_LE(observation[64 * plane + s], 1u) << "plane " << plane << " square " << s;
    if (observation[64 * plane + s]) squares.insert(s);
  }
  return squares;
}

TEST(OthelloEnvironment, ObservationsAreTheMoversDiscsThenTheOpponents) {
  const auto game = test::make_game();
  const auto& table = plugin_table<gsdk_observations>(*game, GSDK_TABLE_OBSERVATIONS);
  uint32_t extents[4] = {};
  ASSERT_EQ(table.shape(game->handle(), extents, 4), 3u);
  EXPECT_EQ(std::vector<uint32_t>(extents, extents + 3), (std::vector<uint32_t>{2, 8, 8}));
  EXPECT_EQ(table.element_type(game->handle()), GSDK_ELEMENT_UINT8);

  Position p = start_position(); // black (to move) on e4 = 28 and d5 = 35, white on d4 = 27 and e5 = 36
  auto observation = observation_of(*game, p);
  EXPECT_EQ(squares_of(observation, 0), (std::set<uint32_t>{28, 35}));
  EXPECT_EQ(squares_of(observation, 1), (std::set<uint32_t>{27, 36}));

  play(p, *parse_move_name("d3")); // black takes d3 = 19 and turns d4; white to move sees itself in plane 0
  observation = observation_of(*game, p);
  EXPECT_EQ(squares_of(observation, 0), (std::set<uint32_t>{36}));
  EXPECT_EQ(squares_of(observation, 1), (std::set<uint32_t>{19, 27, 28, 35}));
}

TEST(OthelloEnvironment, MoveCodesAreDistinctAndBelowTheCountInRandomGames) {
  for (const char* convention : {"standard", "finished_not_leaf", "free_pass"}) {
    const auto game = test::make_game(convention);
    const auto& codes = plugin_table<gsdk_move_codes>(*game, GSDK_TABLE_MOVE_CODES);
    const uint32_t code_count = codes.code_count(game->handle());
    EXPECT_EQ(code_count, 65u);
    std::mt19937_64 random(5);
    std::vector<uint32_t> moves(game->max_moves());
    uint64_t passes = 0;
    for (int g = 0; g < 200; ++g) {
      for (auto s = game->initial_state(); game->current_player(s) != GSDK_PLAYER_TERMINAL;) {
        const uint32_t n = game->checked_legal_moves(s, moves);
        std::set<uint32_t> seen;
        for (uint32_t k = 0; k < n; ++k) {
          const uint32_t code = codes.move_code(game->handle(), s.data(), moves[k]);
          ASSERT_LT(code, code_count);
          ASSERT_TRUE(seen.insert(code).second) << "code " << code << " twice in " << game->state_to_string(s);
        }
        passes += n == 1 && moves[0] == kPass;
        game->apply_move(s, moves[random() % n]);
      }
    }
    if (std::string(convention) != "free_pass") {
      EXPECT_GT(passes, 0u) << convention << ": no pass was coded";
    }
  }
}

TEST(OthelloEnvironment, BatchedStepsEqualThePerStateTableOverManyGames) {
  for (const char* convention : {"standard", "finished_not_leaf", "free_pass"}) {
    const auto game = test::make_game(convention);
    const uint64_t ended = gsdk::test::expect_batched_steps_match_reference(*game, 37, 3000, 11);
    // About 60 moves a game: 37 games of 3000 steps finish well over a thousand games, passes among them.
    EXPECT_GT(ended, 1000u) << convention;
  }
}

TEST(OthelloEnvironment, Avx512StepsAndObservationsEqualTheOneGameSteps) {
  if (!cpu::avx512bw_available()) GTEST_SKIP() << "this processor lacks AVX-512 BW";
  for (const Convention convention : {Convention::standard, Convention::finished_not_leaf, Convention::free_pass}) {
    constexpr uint32_t kGames = 43; // five vectors and three games
    gsdk::test::StepArrays vector(kGames, sizeof(Position), 2, kCodeCount), single = vector;
    std::vector<Position> vector_states(kGames, start_position()), single_states = vector_states;
    std::vector<Position> vector_final(kGames), single_final(kGames);
    for (uint32_t k = 0; k < kGames; ++k) write_legal_codes(legal_moves(start_position()), &single.legal[k * kCodeCount]);
    std::vector<uint8_t> vector_observations(kGames * kObservationBytes), single_observations = vector_observations;
    std::mt19937_64 random(23);
    uint64_t ended = 0;
    for (int t = 0; t < 3000 && !HasFailure(); ++t) {
      for (uint32_t k = 0; k < kGames; ++k)
        single.actions[k] = gsdk::test::random_legal_code(&single.legal[k * kCodeCount], kCodeCount, random);
      for (uint32_t k = 0; k < kGames; ++k)
        cpu::step_game(single_states.data(), single.actions.data(), k, convention, single.rewards.data(),
                       single.terminated.data(), single.players.data(), single.legal.data(), single_final.data());
      cpu::step_batch_avx512(vector_states.data(), single.actions.data(), kGames, convention, vector.rewards.data(),
                             vector.terminated.data(), vector.players.data(), vector.legal.data(),
                             vector_final.data());
      for (uint32_t k = 0; k < kGames; ++k) {
        if (single.terminated[k]) {
          // The final position is a finished game: neither side has a move.
          ASSERT_EQ(legal_moves(single_final[k]), 0u) << "game " << k << " step " << t;
          ASSERT_FALSE(opponent_can_move(single_final[k])) << "game " << k << " step " << t;
          ASSERT_EQ(vector_final[k].own, single_final[k].own) << "game " << k << " step " << t;
          ASSERT_EQ(vector_final[k].opponent, single_final[k].opponent) << "game " << k << " step " << t;
          ASSERT_EQ(vector_final[k].side, single_final[k].side) << "game " << k << " step " << t;
        }
        ASSERT_EQ(vector_states[k].own, single_states[k].own) << "game " << k << " step " << t;
        ASSERT_EQ(vector_states[k].opponent, single_states[k].opponent) << "game " << k << " step " << t;
        ASSERT_EQ(vector_states[k].side, single_states[k].side) << "game " << k << " step " << t;
        write_observation(single_states[k], &single_observations[k * kObservationBytes]);
      }
      EXPECT_EQ(vector.rewards, single.rewards);
      EXPECT_EQ(vector.terminated, single.terminated);
      EXPECT_EQ(vector.players, single.players);
      EXPECT_EQ(vector.legal, single.legal);
      cpu::fill_observations_avx512(vector_states.data(), kGames, vector_observations.data());
      EXPECT_EQ(vector_observations, single_observations);
      for (const uint8_t done : single.terminated) ended += done;
    }
    EXPECT_GT(ended, 1000u);
  }
}

TEST(OthelloEnvironment, AnActionThatIsNoLegalMovesCodeIsRefusedByName) {
  const auto game = test::make_game();
  const auto& table = plugin_table<gsdk_batched_steps>(*game, GSDK_TABLE_BATCHED_STEPS);
  for (const uint32_t action : {0u, 64u, 65u, 1000u}) { // a1 cannot be taken at the start, nor can black pass
    Position p[2] = {start_position(), start_position()};
    const uint32_t actions[2] = {19, action};
    float rewards[4];
    uint8_t terminated[2], legal[2 * 65];
    int32_t players[2];
    char error[512] = {};
    EXPECT_EQ(table.step(game->handle(), p, actions, 2, rewards, terminated, players, legal, error, sizeof error),
              GSDK_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(error).find("action " + std::to_string(action) + " of game 1"), std::string::npos) << error;
    EXPECT_EQ(p[1].own, start_position().own) << "the refused game was changed";
  }
}

TEST(OthelloEnvironment, NullArraysAreRefusedByName) {
  const auto game = test::make_game();
  const auto& table = plugin_table<gsdk_batched_steps>(*game, GSDK_TABLE_BATCHED_STEPS);
  Position p = start_position();
  const uint32_t action = 19;
  float rewards[2];
  uint8_t terminated;
  int32_t player;
  char error[512] = {};
  EXPECT_EQ(table.step(game->handle(), &p, &action, 1, rewards, &terminated, &player, nullptr, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("`legal` is NULL"), std::string::npos) << error;
  EXPECT_EQ(table.step(game->handle(), nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, error, sizeof error),
            GSDK_OK)
      << "an empty batch needs no arrays";
}

} // namespace
} // namespace othello
