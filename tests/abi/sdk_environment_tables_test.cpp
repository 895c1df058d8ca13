// sdk_environment_tables_test.cpp - the SDK helper's glue for vectorised environments (ABI 1.11) seen from the C
// side: gsdk.observations.v1 and gsdk.batched_steps.v1 appear exactly when the rules class provides their members
// (their CUDA entries NULL without the CUDA members), the shape honours the caller's capacity, the step reaches the
// rules and turns their exceptions into status and message, and NULL arrays of a non-empty batch are refused by name.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gsdk/plugin.hpp"

namespace {

struct Counter {
  int32_t value;
};

// A one-player count to 3 by steps of 1 or 2 (codes 0 and 1), with a one-element observation.
class CountingGame {
public:
  using State = Counter;
  static constexpr const char* kName = "counting";
  static constexpr const char* kDescription = "count to three";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;
  static std::span<const gsdk_param_desc> parameters() { return {}; }
  explicit CountingGame(const gsdk::Params&) {}
  uint32_t max_moves() const { return 2; }
  std::pair<int64_t, int64_t> score_range() const { return {3, 4}; }
  void initial_state(State& s) const { s.value = 0; }
  int32_t current_player(const State& s) const { return s.value >= 3 ? GSDK_PLAYER_TERMINAL : 0; }
  uint32_t legal_moves(const State&, uint32_t* moves, double*) const {
    moves[0] = 1;
    moves[1] = 2;
    return 2;
  }
  void apply_move(State& s, uint32_t m) const { s.value += static_cast<int32_t>(m); }
  int64_t score(const State& s) const { return s.value; }
  std::string state_to_string(const State& s) const { return std::to_string(s.value); }
  std::string move_to_string(const State&, uint32_t m) const { return std::to_string(m); }
  State state_from_string(std::string_view) const { return State{0}; }

  uint32_t code_count() const { return 2; }
  uint32_t move_code(const State&, uint32_t move) const { return move - 1; }
  std::vector<uint32_t> observation_shape() const { return {1, 1, 1}; }
  int32_t observation_type() const { return GSDK_ELEMENT_FLOAT32; }
  void fill_observations(const State* states, uint32_t count, void* out) const noexcept {
    for (uint32_t k = 0; k < count; ++k) static_cast<float*>(out)[k] = static_cast<float>(states[k].value);
  }
  void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                  int32_t* players, uint8_t* legal) const {
    for (uint32_t k = 0; k < count; ++k) {
      if (actions[k] > 1) throw gsdk::PluginError("action " + std::to_string(actions[k]) + " is no code");
      states[k].value += static_cast<int32_t>(actions[k]) + 1;
      terminated[k] = states[k].value >= 3 ? 1 : 0;
      rewards[k] = terminated[k] ? static_cast<float>(states[k].value) : 0.0f;
      if (terminated[k]) states[k].value = 0;
      players[k] = 0;
      legal[2 * k] = legal[2 * k + 1] = 1;
    }
  }
};

// The same game whose step keeps the final states (ABI 1.13).
class KeepingGame : public CountingGame {
public:
  using CountingGame::CountingGame;
  void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                  int32_t* players, uint8_t* legal, State* final_states) const {
    for (uint32_t k = 0; k < count; ++k) {
      const State before{states[k].value + static_cast<int32_t>(actions[k]) + 1};
      CountingGame::step_batch(states + k, actions + k, 1, rewards + k, terminated + k, players + k, legal + 2 * k);
      if (terminated[k] && final_states) final_states[k] = before;
    }
  }
};

// The same game without the environment's members.
class PlainGame : public CountingGame {
public:
  using CountingGame::CountingGame;
  void step_batch() const = delete;
  void fill_observations() const = delete;
};

using Adapter = gsdk::detail::Adapter<CountingGame>;

gsdk_game_instance* instance() {
  static gsdk_game_instance* made = [] {
    gsdk_game_instance* i = nullptr;
    EXPECT_EQ(Adapter::game_table()->create(nullptr, 0, &i, nullptr, 0), GSDK_OK);
    return i;
  }();
  return made;
}

TEST(SdkEnvironmentTables, PresentExactlyWhenProvidedWithoutCudaEntries) {
  const auto* observations = static_cast<const gsdk_observations*>(Adapter::get_proc(GSDK_TABLE_OBSERVATIONS));
  const auto* steps = static_cast<const gsdk_batched_steps*>(Adapter::get_proc(GSDK_TABLE_BATCHED_STEPS));
  ASSERT_NE(observations, nullptr);
  ASSERT_NE(steps, nullptr);
  EXPECT_EQ(observations->header.type, GSDK_TYPE_OBSERVATIONS);
  EXPECT_EQ(observations->header.size, sizeof(gsdk_observations));
  EXPECT_EQ(steps->header.type, GSDK_TYPE_BATCHED_STEPS);
  EXPECT_EQ(steps->header.size, sizeof(gsdk_batched_steps));
  EXPECT_EQ(observations->cuda_fill, nullptr);
  EXPECT_EQ(steps->cuda_step, nullptr);
  EXPECT_EQ(steps->cuda_reset, nullptr);
  EXPECT_EQ(steps->step_keeping_final, nullptr) << "a step_batch without final_states offers no keeping form";
  EXPECT_EQ(steps->cuda_step_keeping_final, nullptr);
  EXPECT_EQ(gsdk::detail::Adapter<PlainGame>::get_proc(GSDK_TABLE_OBSERVATIONS), nullptr);
  EXPECT_EQ(gsdk::detail::Adapter<PlainGame>::get_proc(GSDK_TABLE_BATCHED_STEPS), nullptr);
}

TEST(SdkEnvironmentTables, ShapeHonoursTheCapacityAndFillReachesTheRules) {
  const auto& observations = *static_cast<const gsdk_observations*>(Adapter::get_proc(GSDK_TABLE_OBSERVATIONS));
  uint32_t extents[3] = {7, 7, 7};
  EXPECT_EQ(observations.shape(instance(), extents, 2), 3u);
  EXPECT_EQ(extents[0], 1u);
  EXPECT_EQ(extents[2], 7u) << "an extent past the capacity was written";
  EXPECT_EQ(observations.shape(instance(), nullptr, 0), 3u);
  EXPECT_EQ(observations.element_type(instance()), GSDK_ELEMENT_FLOAT32);
  const Counter states[2] = {{1}, {2}};
  float out[2] = {};
  observations.fill(instance(), states, 2, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 2.0f);
}

TEST(SdkEnvironmentTables, StepsReachTheRulesAndTheirRefusalsBecomeStatusAndMessage) {
  const auto& steps = *static_cast<const gsdk_batched_steps*>(Adapter::get_proc(GSDK_TABLE_BATCHED_STEPS));
  Counter states[2] = {{0}, {2}};
  uint32_t actions[2] = {0, 1};
  float rewards[2];
  uint8_t terminated[2], legal[4];
  int32_t players[2];
  char error[128] = {};
  ASSERT_EQ(steps.step(instance(), states, actions, 2, rewards, terminated, players, legal, error, sizeof error),
            GSDK_OK);
  EXPECT_EQ(states[0].value, 1);
  EXPECT_EQ(terminated[1], 1);
  EXPECT_EQ(rewards[1], 4.0f);
  actions[0] = 5;
  EXPECT_EQ(steps.step(instance(), states, actions, 2, rewards, terminated, players, legal, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "action 5 is no code");
  EXPECT_EQ(steps.step(instance(), states, actions, 2, rewards, nullptr, players, legal, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("`terminated` is NULL for a batch of 2 states"), std::string::npos) << error;
}

} // namespace

namespace {

TEST(SdkEnvironmentTables, AStepWithFinalStatesOffersTheKeepingFormWhichWritesOnlyEndedGames) {
  using Keeping = gsdk::detail::Adapter<KeepingGame>;
  const auto& steps = *static_cast<const gsdk_batched_steps*>(Keeping::get_proc(GSDK_TABLE_BATCHED_STEPS));
  ASSERT_NE(steps.step, nullptr);
  ASSERT_NE(steps.step_keeping_final, nullptr);
  EXPECT_EQ(steps.cuda_step_keeping_final, nullptr);
  gsdk_game_instance* i = nullptr;
  ASSERT_EQ(Keeping::game_table()->create(nullptr, 0, &i, nullptr, 0), GSDK_OK);
  Counter states[2] = {{0}, {2}};
  Counter final_states[2] = {{-7}, {-7}};
  const uint32_t actions[2] = {0, 1};
  float rewards[2];
  uint8_t terminated[2], legal[4];
  int32_t players[2];
  char error[128] = {};
  ASSERT_EQ(steps.step_keeping_final(i, states, actions, 2, rewards, terminated, players, legal, final_states, error,
                                     sizeof error),
            GSDK_OK)
      << error;
  EXPECT_EQ(final_states[0].value, -7) << "a game that goes on had its final row written";
  EXPECT_EQ(terminated[1], 1);
  EXPECT_EQ(final_states[1].value, 4) << "the ended game's last state";
  EXPECT_EQ(states[1].value, 0) << "the ended game restarted";
  // The plain entry is the same step without final states.
  states[1] = Counter{2};
  ASSERT_EQ(steps.step(i, states, actions, 2, rewards, terminated, players, legal, error, sizeof error), GSDK_OK);
  EXPECT_EQ(states[1].value, 0);
  EXPECT_EQ(steps.step_keeping_final(i, states, actions, 2, rewards, terminated, players, legal, nullptr, error,
                                     sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("`final_states` is NULL"), std::string::npos) << error;
  Keeping::game_table()->destroy(i);
}

} // namespace
