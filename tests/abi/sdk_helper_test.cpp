// sdk_helper_test.cpp - the SDK's C++ helper (sdk/include/gsdk/plugin.hpp) seen from the C side:
// gsdk::detail::negotiate picks or refuses a version with a message naming both, writes no more of
// the answer than the host's struct holds, and every entry point turns exceptions into status codes
// and messages (nothing crosses the ABI). Capability tables appear exactly when the rules class
// provides them.
#include <cstring>
#include <new>
#include <stdexcept>

#include <gtest/gtest.h>

#include "gsdk/plugin.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::contains;

struct CounterState {
  int32_t value;
};

const gsdk_param_desc kModeParam[] = {
    {"mode", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, 9, "what the constructor throws (0: nothing)"},
};

// A rules class whose constructor and batch path throw on request.
class ThrowingGame {
public:
  using State = CounterState;
  static constexpr const char* kName = "throwing";
  static constexpr const char* kDescription = "throws on request";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;
  static std::span<const gsdk_param_desc> parameters() { return kModeParam; }

  explicit ThrowingGame(const gsdk::Params& params) {
    switch (params.get_int("mode")) {
    case 1: throw gsdk::PluginError("mode 1 is refused");
    case 2: throw gsdk::PluginError("no such device here", GSDK_ERR_UNSUPPORTED);
    case 3: throw std::bad_alloc();
    case 4: throw std::runtime_error("internal trouble");
    case 5: throw 42;
    default: break;
    }
  }
  uint32_t max_moves() const { return 2; }
  std::pair<int64_t, int64_t> score_range() const { return {0, 1}; }
  void initial_state(State& s) const { s.value = 0; }
  int32_t current_player(const State& s) const { return s.value >= 2 ? GSDK_PLAYER_TERMINAL : 0; }
  uint32_t legal_moves(const State&, uint32_t* moves, double*) const {
    moves[0] = 0;
    moves[1] = 1;
    return 2;
  }
  void apply_move(State& s, uint32_t) const { ++s.value; }
  int64_t score(const State& s) const { return s.value & 1; }
  std::string state_to_string(const State& s) const { return "value=" + std::to_string(s.value); }
  std::string move_to_string(const State&, uint32_t m) const { return std::to_string(m); }
  State state_from_string(std::string_view text) const {
    if (text != "value=0") throw gsdk::PluginError("cannot read '" + std::string(text) + "'");
    return State{0};
  }
  static int32_t best_simd_level() { return GSDK_SIMD_SCALAR; }
  void cpu_playouts(const gsdk_playout_request& r, gsdk_playout_summary&) const {
    if (r.seed == 1) throw std::runtime_error("batch failure");
    if (r.seed == 2) throw gsdk::PluginError("device lost", GSDK_ERR_DEVICE);
  }
  std::vector<uint32_t> replay_playout(uint64_t, uint64_t playout, const State*) const {
    return std::vector<uint32_t>(playout, 7u);
  }
};

using Adapter = gsdk::detail::Adapter<ThrowingGame>;

gsdk_negotiation request(uint32_t min, uint32_t max) {
  return {{GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, min, max, nullptr};
}

gsdk_plugin_info blank_info() {
  gsdk_plugin_info info;
  std::memset(&info, 0xab, sizeof info);
  info.header = {GSDK_TYPE_PLUGIN_INFO, sizeof(gsdk_plugin_info)};
  return info;
}

int32_t negotiate(const gsdk_negotiation* r, gsdk_plugin_info* info, char* error, uint32_t size) {
  return gsdk::detail::negotiate<ThrowingGame>(r, info, "9.9.9", error, size);
}

TEST(SdkNegotiate, AcceptsARangeHoldingItsMajor) {
  for (const auto& [lo, hi] : {std::pair{GSDK_ABI_MAJOR, GSDK_ABI_MAJOR}, std::pair{0u, GSDK_ABI_MAJOR + 5}}) {
    const gsdk_negotiation r = request(lo, hi);
    gsdk_plugin_info info = blank_info();
    char error[256] = {};
    ASSERT_EQ(negotiate(&r, &info, error, sizeof error), GSDK_OK) << error;
    EXPECT_EQ(info.header.type, GSDK_TYPE_PLUGIN_INFO);
    EXPECT_EQ(info.header.size, sizeof(gsdk_plugin_info));
    EXPECT_EQ(info.abi_major, GSDK_ABI_MAJOR);
    EXPECT_EQ(info.abi_minor, GSDK_ABI_MINOR);
    EXPECT_STREQ(info.plugin_name, "throwing");
    EXPECT_STREQ(info.plugin_version, "9.9.9");
    ASSERT_NE(info.get_proc, nullptr);
  }
}

TEST(SdkNegotiate, RefusesAHostAskingForNewerMajorsNamingBothVersions) {
  const gsdk_negotiation r = request(GSDK_ABI_MAJOR + 1, GSDK_ABI_MAJOR + 2);
  gsdk_plugin_info info = blank_info();
  const gsdk_plugin_info before = info;
  char error[256] = {};
  EXPECT_EQ(negotiate(&r, &info, error, sizeof error), GSDK_ERR_VERSION);
  const std::string m = error;
  EXPECT_TRUE(contains(m, "'throwing'")) << m;
  EXPECT_TRUE(contains(m, "ABI " + std::to_string(GSDK_ABI_MAJOR) + "." + std::to_string(GSDK_ABI_MINOR))) << m;
  EXPECT_TRUE(contains(m, std::to_string(GSDK_ABI_MAJOR + 1) + ".." + std::to_string(GSDK_ABI_MAJOR + 2))) << m;
  EXPECT_EQ(std::memcmp(&info, &before, sizeof info), 0) << "a refusal must leave the answer untouched";
}

TEST(SdkNegotiate, RefusesAHostAskingForOlderMajors) {
  if (GSDK_ABI_MAJOR == 0) GTEST_SKIP();
  const gsdk_negotiation r = request(0, GSDK_ABI_MAJOR - 1);
  gsdk_plugin_info info = blank_info();
  char error[256] = {};
  EXPECT_EQ(negotiate(&r, &info, error, sizeof error), GSDK_ERR_VERSION);
  EXPECT_TRUE(contains(error, "0.." + std::to_string(GSDK_ABI_MAJOR - 1))) << error;
}

TEST(SdkNegotiate, MalformedRequests) {
  gsdk_plugin_info info = blank_info();
  char error[256] = {};
  gsdk_negotiation wrong_tag = request(GSDK_ABI_MAJOR, GSDK_ABI_MAJOR);
  wrong_tag.header.type = GSDK_TYPE_PLUGIN_INFO;
  EXPECT_EQ(negotiate(&wrong_tag, &info, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(error, "malformed")) << error;
  const gsdk_negotiation good = request(GSDK_ABI_MAJOR, GSDK_ABI_MAJOR);
  EXPECT_EQ(negotiate(&good, nullptr, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(negotiate(nullptr, &info, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(negotiate(nullptr, &info, nullptr, 0), GSDK_ERR_INVALID_ARGUMENT) << "no error buffer: still no crash";
}

TEST(SdkNegotiate, OlderHostStructIsNotOverrun) {
  // A host whose gsdk_plugin_info ended before plugin_version: the plugin writes only what it holds.
  struct {
    gsdk_plugin_info info;
    unsigned char after[64];
  } buffer;
  std::memset(&buffer, 0xcd, sizeof buffer);
  const uint32_t old_size = offsetof(gsdk_plugin_info, plugin_version);
  buffer.info.header = {GSDK_TYPE_PLUGIN_INFO, old_size};
  const gsdk_negotiation r = request(GSDK_ABI_MAJOR, GSDK_ABI_MAJOR);
  char error[256] = {};
  ASSERT_EQ(negotiate(&r, &buffer.info, error, sizeof error), GSDK_OK) << error;
  EXPECT_EQ(buffer.info.header.size, old_size);
  EXPECT_STREQ(buffer.info.plugin_name, "throwing");
  const auto* bytes = reinterpret_cast<const unsigned char*>(&buffer);
  for (size_t i = old_size; i < sizeof buffer; ++i) ASSERT_EQ(bytes[i], 0xcd) << "byte " << i << " was written";
}

TEST(SdkNegotiate, ErrorMessageIsTruncatedAndTerminated) {
  const gsdk_negotiation r = request(GSDK_ABI_MAJOR + 1, GSDK_ABI_MAJOR + 1);
  gsdk_plugin_info info = blank_info();
  char error[16];
  std::memset(error, 'x', sizeof error);
  EXPECT_EQ(negotiate(&r, &info, error, 10), GSDK_ERR_VERSION);
  EXPECT_EQ(std::string(error), "plugin 't");
  EXPECT_EQ(error[10], 'x') << "wrote past error_size";
}

TEST(SdkTables, PresentExactlyWhenProvided) {
  EXPECT_NE(Adapter::get_proc(GSDK_TABLE_GAME), nullptr);
  EXPECT_NE(Adapter::get_proc(GSDK_TABLE_CPU_PLAYOUTS), nullptr);
  EXPECT_NE(Adapter::get_proc(GSDK_TABLE_REPLAY), nullptr);
  EXPECT_EQ(Adapter::get_proc(GSDK_TABLE_CUDA_PLAYOUTS), nullptr);
  EXPECT_EQ(Adapter::get_proc(GSDK_TABLE_SCORE_DISTRIBUTION), nullptr);
  EXPECT_EQ(Adapter::get_proc("gsdk.game.v2"), nullptr);
  EXPECT_EQ(Adapter::get_proc(nullptr), nullptr);

  const auto* game = static_cast<const gsdk_game*>(Adapter::get_proc(GSDK_TABLE_GAME));
  EXPECT_EQ(game->header.type, GSDK_TYPE_GAME);
  EXPECT_EQ(game->header.size, sizeof(gsdk_game));
  EXPECT_STREQ(game->name, "throwing");
  EXPECT_EQ(game->player_count, 1u);
  ASSERT_EQ(game->param_count, 1u);
  EXPECT_STREQ(game->params[0].name, "mode");
  const auto* cpu = static_cast<const gsdk_cpu_playouts*>(Adapter::get_proc(GSDK_TABLE_CPU_PLAYOUTS));
  EXPECT_EQ(cpu->header.type, GSDK_TYPE_CPU_PLAYOUTS);
  EXPECT_EQ(cpu->header.size, sizeof(gsdk_cpu_playouts));
  const auto* replay = static_cast<const gsdk_replay*>(Adapter::get_proc(GSDK_TABLE_REPLAY));
  EXPECT_EQ(replay->header.type, GSDK_TYPE_REPLAY);
}

struct CreateCase {
  int64_t mode;
  int32_t status;
  const char* message;
};

class SdkCreate : public ::testing::TestWithParam<CreateCase> {};

TEST_P(SdkCreate, ExceptionsBecomeStatusAndMessage) {
  const CreateCase c = GetParam();
  const auto* game = static_cast<const gsdk_game*>(Adapter::get_proc(GSDK_TABLE_GAME));
  gsdk_param_value value{};
  value.name = "mode";
  value.type = GSDK_PARAM_INT;
  value.int_value = c.mode;
  gsdk_game_instance* instance = nullptr;
  char error[256] = {};
  EXPECT_EQ(game->create(&value, 1, &instance, error, sizeof error), c.status);
  EXPECT_EQ(instance, nullptr);
  EXPECT_STREQ(error, c.message);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, SdkCreate,
                         ::testing::Values(CreateCase{1, GSDK_ERR_INVALID_ARGUMENT, "mode 1 is refused"},
                                           CreateCase{2, GSDK_ERR_UNSUPPORTED, "no such device here"},
                                           CreateCase{3, GSDK_ERR_OUT_OF_MEMORY, "out of memory"},
                                           CreateCase{4, GSDK_ERR_INTERNAL, "internal trouble"},
                                           CreateCase{5, GSDK_ERR_INTERNAL, "unknown exception in plugin"}));

TEST(SdkCreateMissing, ParameterTheHostDidNotPass) {
  const auto* game = static_cast<const gsdk_game*>(Adapter::get_proc(GSDK_TABLE_GAME));
  gsdk_game_instance* instance = nullptr;
  char error[256] = {};
  EXPECT_EQ(game->create(nullptr, 0, &instance, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "parameter 'mode' was not passed by the host");
  // A value of the wrong type is as good as missing.
  gsdk_param_value real{};
  real.name = "mode";
  real.type = GSDK_PARAM_REAL;
  EXPECT_EQ(game->create(&real, 1, &instance, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
}

class SdkInstance : public ::testing::Test {
protected:
  void SetUp() override {
    game = static_cast<const gsdk_game*>(Adapter::get_proc(GSDK_TABLE_GAME));
    gsdk_param_value value{};
    value.name = "mode";
    value.type = GSDK_PARAM_INT;
    char error[256] = {};
    ASSERT_EQ(game->create(&value, 1, &instance, error, sizeof error), GSDK_OK) << error;
    ASSERT_NE(instance, nullptr);
  }
  void TearDown() override {
    if (instance) game->destroy(instance);
  }
  const gsdk_game* game = nullptr;
  gsdk_game_instance* instance = nullptr;
};

TEST_F(SdkInstance, PerStateCallsReachTheRules) {
  EXPECT_EQ(game->state_size(instance), sizeof(CounterState));
  EXPECT_EQ(game->max_moves(instance), 2u);
  int64_t lo = -5, hi = -5;
  game->score_range(instance, &lo, &hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 1);
  CounterState s{99};
  game->initial_state(instance, &s);
  EXPECT_EQ(s.value, 0);
  game->apply_move(instance, &s, 1);
  EXPECT_EQ(game->current_player(instance, &s), 0);
  game->apply_move(instance, &s, 1);
  EXPECT_EQ(game->current_player(instance, &s), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(game->score(instance, &s), 0);
}

TEST_F(SdkInstance, TextIsTruncatedButTheNeededLengthReturned) {
  const CounterState s{12345};
  char buffer[8];
  std::memset(buffer, 'x', sizeof buffer);
  EXPECT_EQ(game->state_to_string(instance, &s, buffer, 4), std::string("value=12345").size());
  EXPECT_STREQ(buffer, "val");
  EXPECT_EQ(buffer[4], 'x');
  EXPECT_EQ(game->state_to_string(instance, &s, nullptr, 0), 11u) << "size query without a buffer";
  char move[8] = {};
  EXPECT_EQ(game->move_to_string(instance, &s, 1, move, sizeof move), 1u);
  EXPECT_STREQ(move, "1");
}

TEST_F(SdkInstance, StateFromStringErrorsAreValues) {
  CounterState s{5};
  char error[128] = {};
  EXPECT_EQ(game->state_from_string(instance, "value=0", &s, error, sizeof error), GSDK_OK);
  EXPECT_EQ(s.value, 0);
  s.value = 5;
  EXPECT_EQ(game->state_from_string(instance, "nonsense", &s, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "cannot read 'nonsense'");
  EXPECT_EQ(s.value, 5) << "a refused text must not change the state";
  EXPECT_EQ(game->state_from_string(instance, nullptr, &s, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
}

TEST_F(SdkInstance, BatchExceptionsBecomeStatusAndMessage) {
  const auto* cpu = static_cast<const gsdk_cpu_playouts*>(Adapter::get_proc(GSDK_TABLE_CPU_PLAYOUTS));
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  gsdk_playout_summary summary{};
  char error[128] = {};
  r.seed = 0;
  EXPECT_EQ(cpu->run(instance, &r, &summary, error, sizeof error), GSDK_OK);
  r.seed = 1;
  EXPECT_EQ(cpu->run(instance, &r, &summary, error, sizeof error), GSDK_ERR_INTERNAL);
  EXPECT_STREQ(error, "batch failure");
  r.seed = 2;
  EXPECT_EQ(cpu->run(instance, &r, &summary, error, sizeof error), GSDK_ERR_DEVICE);
  EXPECT_STREQ(error, "device lost");
}

TEST_F(SdkInstance, ReplayRespectsCapacity) {
  const auto* replay = static_cast<const gsdk_replay*>(Adapter::get_proc(GSDK_TABLE_REPLAY));
  uint32_t moves[8] = {};
  char error[128] = {};
  EXPECT_EQ(replay->playout_moves(instance, 0, 5, nullptr, moves, 8, error, sizeof error), 5u);
  EXPECT_EQ(moves[4], 7u);
  EXPECT_EQ(moves[5], 0u);
  std::memset(moves, 0, sizeof moves);
  EXPECT_EQ(replay->playout_moves(instance, 0, 5, nullptr, moves, 3, error, sizeof error), 0u);
  EXPECT_STREQ(error, "replay needs 5 moves of room, got 3");
  EXPECT_EQ(moves[0], 0u) << "nothing is written when it does not fit";
}

} // namespace
