// table_growth_test.cpp - tables that grew within major 1 (ABI 1.6 appended run_stoppable to the GPU search
// tables, ABI 1.8 count_leaves_after_moves to the GPU perft table, ABI 1.13 the steps keeping final states to the
// batched steps): the SDK's helper fills a new field exactly
// when the rules class has what it needs, and the host binds a plugin's table of the size it had before,
// reading the new field only when the table's size covers it.
#include <cstddef>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/plugin_tables.hpp"
#include "gsdk/plugin.hpp"

namespace {

struct Counter {
  int32_t value;
};

// The least a rules class needs, plus level-1 searches that report the stop request they were given.
class SearchingGame {
public:
  using State = Counter;
  static constexpr const char* kName = "searching";
  static constexpr const char* kDescription = "level-1 searches on a device";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;
  static std::span<const gsdk_param_desc> parameters() { return {}; }

  explicit SearchingGame(const gsdk::Params&) {}
  uint32_t max_moves() const { return 1; }
  std::pair<int64_t, int64_t> score_range() const { return {0, 1}; }
  void initial_state(State& s) const { s.value = 0; }
  int32_t current_player(const State& s) const { return s.value > 0 ? GSDK_PLAYER_TERMINAL : 0; }
  uint32_t legal_moves(const State&, uint32_t* moves, double*) const {
    moves[0] = 0;
    return 1;
  }
  void apply_move(State& s, uint32_t) const { ++s.value; }
  int64_t score(const State& s) const { return s.value; }
  std::string state_to_string(const State& s) const { return std::to_string(s.value); }
  std::string move_to_string(const State&, uint32_t m) const { return std::to_string(m); }
  State state_from_string(std::string_view) const { return State{0}; }
  uint32_t max_game_length() const { return 1; }
};

// As rules classes wrote them before ABI 1.6: no stop request.
class OldSearchingGame : public SearchingGame {
public:
  using SearchingGame::SearchingGame;
  void cuda_level1_searches(uint64_t, State*, const uint64_t*, uint32_t, int32_t, void*, gsdk_level1_result* results,
                            uint32_t*) const {
    results[0].score = -1;
  }
};

// Since: a last, defaulted stop request; the score says which one arrived.
class StoppingGame : public SearchingGame {
public:
  using SearchingGame::SearchingGame;
  void cuda_level1_searches(uint64_t, State*, const uint64_t*, uint32_t, int32_t, void*, gsdk_level1_result* results,
                            uint32_t*, const uint32_t* stop = nullptr) const {
    results[0].score = stop ? int64_t{*stop} : -1;
  }
};

template <typename G> const gsdk_cuda_level1_searches& level1_table() {
  return *static_cast<const gsdk_cuda_level1_searches*>(gsdk::detail::Adapter<G>::get_proc(GSDK_TABLE_CUDA_LEVEL1_SEARCHES));
}

int64_t run_score(const gsdk_cuda_level1_searches& table, const void* game, const uint32_t* stop, bool stoppable) {
  gsdk_level1_result result{};
  char error[64] = {};
  const auto* instance = static_cast<const gsdk_game_instance*>(game);
  const int32_t status = stoppable ? table.run_stoppable(instance, 0, nullptr, nullptr, 1, 0, nullptr, &result, nullptr,
                                                         stop, error, sizeof error)
                                   : table.run(instance, 0, nullptr, nullptr, 1, 0, nullptr, &result, nullptr, error,
                                               sizeof error);
  EXPECT_EQ(status, GSDK_OK) << error;
  return result.score;
}

TEST(TableGrowth, HelperOffersRunStoppableExactlyWhenTheRulesTakeAStop) {
  const gsdk::Params none(nullptr, 0);
  const OldSearchingGame old_game(none);
  const StoppingGame stopping(none);
  const uint32_t stop = 7;
  EXPECT_EQ(level1_table<OldSearchingGame>().header.size, sizeof(gsdk_cuda_level1_searches));
  EXPECT_EQ(level1_table<OldSearchingGame>().run_stoppable, nullptr);
  EXPECT_EQ(run_score(level1_table<OldSearchingGame>(), &old_game, nullptr, false), -1);
  ASSERT_NE(level1_table<StoppingGame>().run_stoppable, nullptr);
  EXPECT_EQ(run_score(level1_table<StoppingGame>(), &stopping, &stop, true), 7);
  EXPECT_EQ(run_score(level1_table<StoppingGame>(), &stopping, nullptr, false), -1) << "run passes no stop";
}

// GPU perft rules as written before ABI 1.8 (declared for the helper's table; never run here).
class PerftGame : public SearchingGame {
public:
  using SearchingGame::SearchingGame;
  static constexpr uint32_t kCudaPerftLeafPlies = 2;
  void cuda_perft_count_leaves(const State*, uint32_t, uint32_t, uint32_t*, void*) const {}
  void cuda_perft_generate_moves(const State*, uint32_t, const uint32_t*, uint32_t*, void*) const {}
  void cuda_perft_apply_moves(const State*, const uint32_t*, const uint32_t*, uint32_t, State*, uint32_t*,
                              void*) const {}
};

// Since: the leaves counted from parents and moves; the count says what arrived.
class FusedPerftGame : public PerftGame {
public:
  using PerftGame::PerftGame;
  void cuda_perft_count_leaves_after_moves(const State*, const uint32_t*, const uint32_t*, uint32_t count,
                                           uint32_t plies, uint32_t* counts, void*) const {
    counts[0] = 10 * plies + count;
  }
};

template <typename G> const gsdk_cuda_perft& perft_table() {
  return *static_cast<const gsdk_cuda_perft*>(gsdk::detail::Adapter<G>::get_proc(GSDK_TABLE_CUDA_PERFT));
}

TEST(TableGrowth, HelperOffersTheFusedLeafCountExactlyWhenTheRulesHaveIt) {
  const gsdk::Params none(nullptr, 0);
  const FusedPerftGame fused(none);
  EXPECT_EQ(perft_table<PerftGame>().header.size, sizeof(gsdk_cuda_perft));
  EXPECT_EQ(perft_table<PerftGame>().count_leaves_after_moves, nullptr);
  const auto count = perft_table<FusedPerftGame>().count_leaves_after_moves;
  ASSERT_NE(count, nullptr);
  uint32_t counts[1] = {};
  char error[64] = {};
  EXPECT_EQ(count(reinterpret_cast<const gsdk_game_instance*>(&fused), nullptr, nullptr, nullptr, 3, 2, counts, nullptr,
                  error, sizeof error),
            GSDK_OK)
      << error;
  EXPECT_EQ(counts[0], 23u);
}

// A plugin whose level-1 and perft tables are these, with a game table from the helper.
const gsdk_cuda_level1_searches* g_level1 = nullptr;
const gsdk_cuda_perft* g_perft = nullptr;
const gsdk_batched_steps* g_steps = nullptr;
const void* proc(const char* name) {
  if (std::string_view(name) == GSDK_TABLE_CUDA_LEVEL1_SEARCHES) return g_level1;
  if (std::string_view(name) == GSDK_TABLE_CUDA_PERFT) return g_perft;
  if (std::string_view(name) == GSDK_TABLE_BATCHED_STEPS) return g_steps;
  return gsdk::detail::Adapter<StoppingGame>::get_proc(name);
}

gsdk::core::PluginTables bind_tables_as_set() {
  gsdk_plugin_info info{};
  info.header = {GSDK_TYPE_PLUGIN_INFO, sizeof info};
  info.abi_major = GSDK_ABI_MAJOR;
  info.plugin_name = "growing";
  info.plugin_version = "1";
  info.get_proc = &proc;
  return gsdk::core::bind_tables("growing.so", info);
}

gsdk::core::PluginTables bind_with_level1(const gsdk_cuda_level1_searches& table) {
  g_level1 = &table;
  g_perft = nullptr;
  g_steps = nullptr;
  return bind_tables_as_set();
}

gsdk::core::PluginTables bind_with_perft(const gsdk_cuda_perft& table) {
  g_level1 = nullptr;
  g_perft = &table;
  g_steps = nullptr;
  return bind_tables_as_set();
}

gsdk::core::PluginTables bind_with_steps(const gsdk_batched_steps& table) {
  g_level1 = nullptr;
  g_perft = nullptr;
  g_steps = &table;
  return bind_tables_as_set();
}

int32_t no_step(const gsdk_game_instance*, void*, const uint32_t*, uint32_t, float*, uint8_t*, int32_t*, uint8_t*,
                char*, uint32_t) {
  return GSDK_OK;
}
int32_t no_keeping_step(const gsdk_game_instance*, void*, const uint32_t*, uint32_t, float*, uint8_t*, int32_t*,
                        uint8_t*, void*, char*, uint32_t) {
  return GSDK_OK;
}

// A 1.13 batched-steps table with a CPU step and its keeping form.
gsdk_batched_steps keeping_steps_table() {
  gsdk_batched_steps table{};
  table.header = {GSDK_TYPE_BATCHED_STEPS, sizeof table};
  table.step = &no_step;
  table.step_keeping_final = &no_keeping_step;
  return table;
}

// A grown table bound at its first version's size (its new field unread: the bytes after that size are not
// the plugin's), at its full size (the field read), and one byte short of its first version (refused, naming
// the size expected). `read` returns the new field as the host sees it in the bound tables.
template <typename Table, typename Bind, typename Read>
void expect_bound_by_its_size(Table table, uint32_t first_version, Bind bind, Read read) {
  table.header.size = first_version;
  EXPECT_EQ(read(bind(table)), nullptr);
  table.header.size = sizeof table;
  const auto field = read(bind(table));
  EXPECT_NE(field, nullptr);
  table.header.size = first_version - 1;
  try {
    bind(table);
    FAIL() << "a table shorter than its first version was bound";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("expected at least " + std::to_string(first_version)), std::string::npos)
        << e.what();
  }
}

TEST(TableGrowth, HostBindsATableOfItsFirstVersionAndReadsNewFieldsOnlyWhenCovered) {
  using gsdk::core::PluginTables;
  expect_bound_by_its_size(level1_table<StoppingGame>(),
                           static_cast<uint32_t>(offsetof(gsdk_cuda_level1_searches, run_stoppable)), bind_with_level1,
                           [](const PluginTables& t) { return gsdk::core::stoppable_run(*t.cuda_level1_searches); });
  expect_bound_by_its_size(perft_table<FusedPerftGame>(),
                           static_cast<uint32_t>(offsetof(gsdk_cuda_perft, count_leaves_after_moves)), bind_with_perft,
                           [](const PluginTables& t) { return gsdk::core::fused_leaf_count(*t.cuda_perft); });
  expect_bound_by_its_size(keeping_steps_table(),
                           static_cast<uint32_t>(offsetof(gsdk_batched_steps, step_keeping_final)), bind_with_steps,
                           [](const PluginTables& t) { return gsdk::core::step_keeping_final(*t.batched_steps); });
}

} // namespace
