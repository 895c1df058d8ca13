// sdk_perft_keys_test.cpp - the SDK helper's glue for canonical states (ABI 1.12) seen from the C side:
// gsdk.perft_keys.v1 appears exactly when the rules class has canonical_state, its cuda_canonical only beside
// cuda_canonical_states and the CUDA perft kernels; canonical works out of place and in place, reaches the rules
// for every state and turns their exceptions into status and message; NULL arrays of a non-empty batch are
// refused by name.
#include <string>

#include <gtest/gtest.h>

#include "gsdk/plugin.hpp"

namespace {

struct Clocked {
  int32_t value; // what the counts depend on
  int32_t clock; // plies played: never changes a subtree
};

// Count to 3 by steps of 1 or 2, with a ply clock that canonical_state clears (and refuses a negative value).
class ClockedGame {
public:
  using State = Clocked;
  static constexpr const char* kName = "clocked";
  static constexpr const char* kDescription = "count to three with a clock";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;
  static std::span<const gsdk_param_desc> parameters() { return {}; }
  explicit ClockedGame(const gsdk::Params&) {}
  uint32_t max_moves() const { return 2; }
  std::pair<int64_t, int64_t> score_range() const { return {3, 4}; }
  void initial_state(State& s) const { s = State{0, 0}; }
  int32_t current_player(const State& s) const { return s.value >= 3 ? GSDK_PLAYER_TERMINAL : 0; }
  uint32_t legal_moves(const State&, uint32_t* moves, double*) const {
    moves[0] = 1;
    moves[1] = 2;
    return 2;
  }
  void apply_move(State& s, uint32_t m) const {
    s.value += static_cast<int32_t>(m);
    ++s.clock;
  }
  int64_t score(const State& s) const { return s.value; }
  std::string state_to_string(const State& s) const { return std::to_string(s.value); }
  std::string move_to_string(const State&, uint32_t m) const { return std::to_string(m); }
  State state_from_string(std::string_view) const { return State{0, 0}; }

  void canonical_state(State& s) const {
    if (s.value < 0) throw gsdk::PluginError("value " + std::to_string(s.value) + " is below 0");
    s.clock = 0;
  }
};

// The same game without canonical states.
class PlainGame : public ClockedGame {
public:
  using ClockedGame::ClockedGame;
  void canonical_state() const = delete;
};

// A device form of canonical_state without the CUDA perft kernels: cuda_canonical stays NULL.
class DeviceKeysOnly : public ClockedGame {
public:
  using ClockedGame::ClockedGame;
  void cuda_canonical_states(const State*, uint32_t, State*, void*) const {}
};

// With the CUDA perft kernels (stubs) and a "device" form that runs on the host here: cuda_canonical is filled.
class DeviceKeys : public ClockedGame {
public:
  using ClockedGame::ClockedGame;
  static constexpr uint32_t kCudaPerftLeafPlies = 1;
  void cuda_perft_count_leaves(const State*, uint32_t, uint32_t, uint32_t*, void*) const {}
  void cuda_perft_generate_moves(const State*, uint32_t, const uint32_t*, uint32_t*, void*) const {}
  void cuda_perft_apply_moves(const State*, const uint32_t*, const uint32_t*, uint32_t, State*, uint32_t*,
                              void*) const {}
  void cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const {
    for (uint32_t k = 0; k < count; ++k) out[k] = State{in[k].value, stream ? 7 : 0};
  }
};

template <typename G> const gsdk_perft_keys* keys_table() {
  return static_cast<const gsdk_perft_keys*>(gsdk::detail::Adapter<G>::get_proc(GSDK_TABLE_PERFT_KEYS));
}

template <typename G> gsdk_game_instance* instance() {
  static gsdk_game_instance* made = [] {
    gsdk_game_instance* i = nullptr;
    EXPECT_EQ(gsdk::detail::Adapter<G>::game_table()->create(nullptr, 0, &i, nullptr, 0), GSDK_OK);
    return i;
  }();
  return made;
}

TEST(SdkPerftKeys, PresentExactlyWhenProvidedAndTheDeviceEntryOnlyBesideTheCudaPerftKernels) {
  const gsdk_perft_keys* keys = keys_table<ClockedGame>();
  ASSERT_NE(keys, nullptr);
  EXPECT_EQ(keys->header.type, GSDK_TYPE_PERFT_KEYS);
  EXPECT_EQ(keys->header.size, sizeof(gsdk_perft_keys));
  EXPECT_NE(keys->canonical, nullptr);
  EXPECT_EQ(keys->cuda_canonical, nullptr);
  EXPECT_EQ(keys_table<PlainGame>(), nullptr);
  ASSERT_NE(keys_table<DeviceKeysOnly>(), nullptr);
  EXPECT_EQ(keys_table<DeviceKeysOnly>()->cuda_canonical, nullptr) << "no CUDA perft table, so no device keys";
  ASSERT_NE(keys_table<DeviceKeys>(), nullptr);
  EXPECT_NE(keys_table<DeviceKeys>()->cuda_canonical, nullptr);
}

TEST(SdkPerftKeys, CanonicalOutOfPlaceAndInPlaceReachesEveryState) {
  const gsdk_perft_keys& keys = *keys_table<ClockedGame>();
  Clocked states[3] = {{0, 5}, {1, 9}, {2, 0}};
  Clocked out[3] = {};
  char error[128] = {};
  ASSERT_EQ(keys.canonical(instance<ClockedGame>(), states, 3, out, error, sizeof error), GSDK_OK) << error;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(out[k].value, k);
    EXPECT_EQ(out[k].clock, 0);
  }
  EXPECT_EQ(states[1].clock, 9) << "out of place, the input stays as it was";
  ASSERT_EQ(keys.canonical(instance<ClockedGame>(), states, 3, states, error, sizeof error), GSDK_OK) << error;
  for (int k = 0; k < 3; ++k) EXPECT_EQ(states[k].clock, 0);
  EXPECT_EQ(keys.canonical(instance<ClockedGame>(), nullptr, 0, nullptr, error, sizeof error), GSDK_OK)
      << "an empty batch needs no arrays";
}

TEST(SdkPerftKeys, RefusalsBecomeStatusAndMessage) {
  const gsdk_perft_keys& keys = *keys_table<ClockedGame>();
  const Clocked states[2] = {{1, 1}, {-4, 1}};
  Clocked out[2] = {};
  char error[128] = {};
  EXPECT_EQ(keys.canonical(instance<ClockedGame>(), states, 2, out, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "value -4 is below 0");
  EXPECT_EQ(keys.canonical(instance<ClockedGame>(), states, 2, nullptr, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("`out` is NULL for a batch of 2 states"), std::string::npos) << error;
}

TEST(SdkPerftKeys, DeviceEntryReachesTheRulesWithTheStream) {
  const gsdk_perft_keys& keys = *keys_table<DeviceKeys>();
  const Clocked states[2] = {{1, 3}, {2, 4}};
  Clocked out[2] = {};
  char error[128] = {};
  int stream = 0;
  ASSERT_EQ(keys.cuda_canonical(instance<DeviceKeys>(), states, 2, out, &stream, error, sizeof error), GSDK_OK)
      << error;
  EXPECT_EQ(out[1].value, 2);
  EXPECT_EQ(out[1].clock, 7) << "the stream was not passed through";
  EXPECT_EQ(keys.cuda_canonical(instance<DeviceKeys>(), nullptr, 2, out, &stream, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("`states` is NULL for a batch of 2 states"), std::string::npos) << error;
}

} // namespace
