// beam_search_test.cpp - the core's beam search (gsdk/core/beam/beam_search.hpp) on test_tree, whose longest game a
// brute-force walk finds: a beam wide enough to hold every state finds it, narrow beams find games that replay to
// their score, 1 and 4 threads and the GPU give the same levels, warm starts begin every sequence, searches split
// over parts and a resumed checkpoint give the one-process result, and games the beam cannot search are refused.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/beam/beam_search.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using namespace gsdk;

class BeamSearchTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new host::PluginCatalog;
    catalog_->load_file(test::test_plugin_dir("valid") / "test_tree.so");
    catalog_->load_file(test::test_plugin_dir("valid") / "test_nim.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static std::unique_ptr<core::GameInstance> make(const std::string& name, const toml::table& params) {
    const auto* plugin = catalog_->find(name);
    if (!plugin) throw std::runtime_error(name + " did not load");
    return std::make_unique<core::GameInstance>(plugin->tables,
                                                host::resolve_params(*plugin->tables.game, params).values);
  }
  static std::unique_ptr<core::GameInstance> tree(int64_t seed, int64_t max_ply) {
    return make("test_tree", toml::table{{"seed", seed}, {"max_ply", max_ply}});
  }

  static host::PluginCatalog* catalog_;
};

host::PluginCatalog* BeamSearchTest::catalog_ = nullptr;

// The longest game from `state`, by walking every game.
int64_t longest_game(const core::GameInstance& game, const core::StateBlob& state) {
  if (game.current_player(state) == GSDK_PLAYER_TERMINAL) return game.score(state);
  std::vector<uint32_t> moves(game.max_moves());
  const uint32_t n = game.checked_legal_moves(state, moves);
  int64_t best = 0;
  for (uint32_t k = 0; k < n; ++k) {
    core::StateBlob child = state;
    game.apply_move(child, moves[k]);
    best = std::max(best, longest_game(game, child));
  }
  return best;
}

core::BeamSettings settings(uint32_t width, uint32_t cap = 0, uint64_t seed = 1) {
  core::BeamSettings s;
  s.seed = seed;
  s.width = width;
  s.children_per_parent = cap;
  return s;
}

core::NestedSearchOutcome run(const core::GameInstance& game, const core::BeamSettings& s, unsigned threads = 1) {
  const auto device = core::make_cpu_beam_device(game, threads);
  return core::run_beam(game, s, *device);
}

TEST_F(BeamSearchTest, ABeamThatHoldsEveryStateFindsTheLongestGame) {
  for (int64_t seed : {1, 2, 3, 4, 5, 6}) {
    const auto game = tree(seed, 9);
    const int64_t longest = longest_game(*game, game->initial_state());
    const core::NestedSearchOutcome outcome = run(*game, settings(1u << 22));
    ASSERT_FALSE(outcome.best.empty()) << "seed " << seed;
    EXPECT_EQ(outcome.best.score, longest) << "seed " << seed;
    EXPECT_EQ(core::replay_score(*game, outcome.best.moves), outcome.best.score);
    EXPECT_EQ(outcome.engine, "beam");
    EXPECT_EQ(outcome.searches_finished, 1u);
    EXPECT_GT(outcome.batches, 0u);
  }
}

TEST_F(BeamSearchTest, NarrowBeamsFindRealGamesAndSometimesMissTheLongest) {
  int missed = 0;
  for (int64_t seed = 1; seed <= 30; ++seed) {
    const auto game = tree(seed, 12);
    const core::NestedSearchOutcome greedy = run(*game, settings(1));
    const core::NestedSearchOutcome wide = run(*game, settings(64));
    for (const auto* outcome : {&greedy, &wide}) {
      ASSERT_FALSE(outcome->best.empty());
      EXPECT_EQ(core::replay_score(*game, outcome->best.moves), outcome->best.score) << "seed " << seed;
    }
    EXPECT_LE(greedy.best.score, wide.best.score + 1) << "seed " << seed;
    missed += greedy.best.score < wide.best.score;
  }
  EXPECT_GT(missed, 0) << "a greedy beam never did worse than a wide one: the test game does not test the width";
}

TEST_F(BeamSearchTest, OneAndFourThreadsGiveTheSameRun) {
  for (uint32_t width : {1u, 5u, 300u}) {
    for (uint32_t cap : {0u, 2u}) {
      const auto game = tree(12, 14);
      const core::NestedSearchOutcome one = run(*game, settings(width, cap, 9), 1);
      const core::NestedSearchOutcome four = run(*game, settings(width, cap, 9), 4);
      EXPECT_EQ(one.best.moves, four.best.moves) << width << " " << cap;
      EXPECT_EQ(one.beam_children, four.beam_children);
      EXPECT_EQ(one.beam_capped, four.beam_capped);
      EXPECT_EQ(one.batches, four.batches);
    }
  }
}

TEST_F(BeamSearchTest, TheSeedBreaksTies) {
  const auto game = tree(3, 14);
  bool differ = false;
  for (uint64_t seed = 1; seed < 8 && !differ; ++seed)
    differ = run(*game, settings(4, 0, seed)).best.moves != run(*game, settings(4, 0, seed + 100)).best.moves;
  EXPECT_TRUE(differ) << "eight seeds gave the same sequences";
}

TEST_F(BeamSearchTest, AWarmStartBeginsEverySequenceWithItsMoves) {
  const auto game = tree(7, 12);
  std::vector<uint32_t> legal(game->max_moves());
  core::StateBlob state = game->initial_state();
  std::vector<uint32_t> prefix;
  for (int i = 0; i < 3; ++i) {
    const uint32_t n = game->checked_legal_moves(state, legal);
    ASSERT_GT(n, 0u);
    prefix.push_back(legal[n - 1]);
    game->apply_move(state, legal[n - 1]);
  }
  core::BeamSettings s = settings(16);
  s.starts = {prefix};
  std::vector<std::vector<uint32_t>> improvements;
  std::vector<core::FinishedSearch> finished;
  std::vector<std::vector<uint32_t>> finished_moves;
  const auto device = core::make_cpu_beam_device(*game, 1);
  const core::NestedSearchOutcome outcome = core::run_beam(
      *game, s, *device, [&](const core::Improvement& i) { improvements.push_back(*i.moves); }, {},
      [&](const core::FinishedSearch& f) {
        finished.push_back(f);
        finished_moves.emplace_back(f.moves.begin(), f.moves.end());
      });
  ASSERT_FALSE(outcome.best.empty());
  ASSERT_FALSE(improvements.empty());
  for (const auto& moves : improvements) EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), moves.begin()));
  EXPECT_EQ(core::replay_score(*game, outcome.best.moves), outcome.best.score);
  // The finished search reports the moves after its start's.
  ASSERT_EQ(finished.size(), 1u);
  std::vector<uint32_t> whole = prefix;
  whole.insert(whole.end(), finished_moves[0].begin(), finished_moves[0].end());
  EXPECT_EQ(whole, outcome.best.moves);
  // A start that is not a game is refused.
  s.starts = {{99}};
  EXPECT_THROW(core::run_beam(*game, s, *device), core::StartMovesError);
}

TEST_F(BeamSearchTest, SearchesSplitOverPartsGiveTheOneProcessBest) {
  const auto game = tree(21, 13);
  core::BeamSettings s = settings(8, 0, 4);
  s.budget.restarts = 5;
  const core::NestedSearchOutcome whole = run(*game, s);
  EXPECT_EQ(whole.searches_finished, 6u);
  std::optional<core::NestedSearchOutcome> best;
  for (uint64_t shard = 1; shard <= 2; ++shard) {
    const core::WorkPart part = core::shard_part(6, shard, 2);
    core::BeamSettings p = s;
    p.budget.part = &part;
    const core::NestedSearchOutcome outcome = run(*game, p);
    EXPECT_EQ(outcome.searches_finished, 3u);
    const bool better = !best || outcome.best.score > best->best.score ||
                        (outcome.best.score == best->best.score && outcome.best_search < best->best_search);
    if (better) best = outcome;
  }
  EXPECT_EQ(best->best.score, whole.best.score);
  EXPECT_EQ(best->best_search, whole.best_search);
  EXPECT_EQ(best->best.moves, whole.best.moves);
}

TEST_F(BeamSearchTest, AResumedCheckpointEndsAsTheUninterruptedRun) {
  const auto game = tree(5, 13);
  core::BeamSettings s = settings(6, 2, 8);
  s.budget.restarts = 3;
  const core::NestedSearchOutcome whole = run(*game, s);
  // The progress saved once two searches had finished (a save every round).
  std::optional<core::NestedSearchProgress> saved;
  core::BeamSettings first = s;
  first.budget.checkpoints.seconds = 0;
  first.budget.checkpoints.save = [&](const core::NestedSearchProgress& p) {
    if (!saved && p.finished.count() == 2) saved = p;
  };
  run(*game, first);
  ASSERT_TRUE(saved.has_value());
  EXPECT_TRUE(saved->under_way.empty()) << "a beam is checkpointed whole";
  core::BeamSettings resumed = s;
  resumed.budget.checkpoints.resume = &*saved;
  const core::NestedSearchOutcome outcome = run(*game, resumed);
  EXPECT_EQ(outcome.best.moves, whole.best.moves);
  EXPECT_EQ(outcome.best_search, whole.best_search);
  EXPECT_EQ(outcome.searches_finished, whole.searches_finished);
}

// A search stopped a few levels in ends with its beam's first state finished greedily: a whole game, deeper than the
// levels the beam expanded.
TEST_F(BeamSearchTest, ASearchCutShortFinishesItsBestStateGreedily) {
  const auto game = tree(5, 40);
  core::StopRequest stop;
  core::BeamSettings s = settings(50);
  s.budget.stop = &stop;
  s.budget.restarts = 9;
  uint32_t deepest = 0;
  const auto device = core::make_cpu_beam_device(*game, 1);
  const core::NestedSearchOutcome outcome = core::run_beam(*game, s, *device, {}, [&](const core::BeamLevel& level) {
    deepest = level.depth;
    if (level.depth == 4) stop.request();
  });
  EXPECT_TRUE(outcome.stopped_by_request);
  EXPECT_EQ(outcome.searches_finished, 0u);
  EXPECT_EQ(deepest, 4u);
  ASSERT_FALSE(outcome.best.empty());
  EXPECT_GT(outcome.best.moves.size(), 5u) << "played on past the beam's four levels";
  EXPECT_EQ(core::replay_score(*game, outcome.best.moves), outcome.best.score);
}

TEST_F(BeamSearchTest, AnInitialStateThatHasEndedIsTheBest) {
  const auto game = tree(11, 10); // seed 11: the initial hash is a multiple of 11
  ASSERT_EQ(game->current_player(game->initial_state()), GSDK_PLAYER_TERMINAL);
  const core::NestedSearchOutcome outcome = run(*game, settings(4));
  EXPECT_EQ(outcome.best.score, 0);
  EXPECT_TRUE(outcome.best.moves.empty());
  EXPECT_EQ(outcome.searches_finished, 1u);
  EXPECT_EQ(outcome.batches, 0u);
}

TEST_F(BeamSearchTest, ABeamLargerThanTheMemoryIsRefusedWithTheNumbers) {
  const auto game = tree(1, 5);
  try {
    run(*game, settings(UINT32_MAX));
    FAIL() << "a beam of 2^32 - 1 states ran";
  } catch (const core::MemoryRefusal& e) {
    EXPECT_NE(std::string(e.what()).find("a beam of 4294967295 states needs at least"), std::string::npos) << e.what();
  }
}

TEST_F(BeamSearchTest, GamesWithoutWhatTheBeamNeedsAreRefused) {
  const auto nim = make("test_nim", {});
  EXPECT_THROW(core::require_beam_game(*nim, false), std::invalid_argument);
  const auto game = tree(1, 5);
  EXPECT_NO_THROW(core::require_beam_game(*game, false));
  EXPECT_THROW(core::run_beam(*game, settings(0), *core::make_cpu_beam_device(*game, 1)), std::invalid_argument);
}

// Every level of the GPU beam equals the CPU's: the kept children in order, the finished ones with their scores,
// and the counts.
TEST_F(BeamSearchTest, TheGpuGivesTheCpusLevels) {
  GSDK_REQUIRE_GPU();
  for (uint32_t width : {1u, 7u, 300u, 20000u}) {
    for (uint32_t cap : {0u, 1u, 3u}) {
      const auto game = tree(13, 16);
      const auto cpu = core::make_cpu_beam_device(*game, 2);
      const auto gpu = core::make_cuda_beam_device(*game, 0, width);
      cpu->reset(game->initial_state());
      gpu->reset(game->initial_state());
      const core::BeamSelectionRules rules{core::beam_tie_seed(3, 0), width, cap, true};
      for (int level = 0;; ++level) {
        const core::BeamLevelResult a = cpu->expand(rules);
        const core::BeamLevelResult b = gpu->expand(rules);
        ASSERT_EQ(a.children, b.children) << width << " " << cap << " level " << level;
        ASSERT_EQ(a.duplicates, b.duplicates);
        ASSERT_EQ(a.capped, b.capped);
        ASSERT_EQ(a.kept.size(), b.kept.size());
        for (size_t j = 0; j < a.kept.size(); ++j) {
          ASSERT_EQ(a.kept[j].parent, b.kept[j].parent) << "level " << level << " state " << j;
          ASSERT_EQ(a.kept[j].move, b.kept[j].move);
        }
        ASSERT_EQ(a.finished.size(), b.finished.size());
        for (size_t j = 0; j < a.finished.size(); ++j) {
          ASSERT_EQ(a.finished[j].child.parent, b.finished[j].child.parent);
          ASSERT_EQ(a.finished[j].child.move, b.finished[j].child.move);
          ASSERT_EQ(a.finished[j].score, b.finished[j].score);
        }
        if (a.kept.empty()) break;
      }
    }
  }
}

TEST_F(BeamSearchTest, TheGpuFinishesASearchCutShortAsTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto game = tree(5, 40);
  const auto stopped_at_level_6 = [&](core::BeamDevice& device) {
    core::StopRequest stop;
    core::BeamSettings s = settings(300, 2, 4);
    s.budget.stop = &stop;
    return core::run_beam(*game, s, device, {}, [&](const core::BeamLevel& level) {
      if (level.depth == 6) stop.request();
    });
  };
  const core::NestedSearchOutcome cpu = stopped_at_level_6(*core::make_cpu_beam_device(*game, 2));
  const core::NestedSearchOutcome gpu = stopped_at_level_6(*core::make_cuda_beam_device(*game, 0, 300));
  EXPECT_TRUE(gpu.stopped_by_request);
  EXPECT_GT(gpu.best.moves.size(), 7u);
  EXPECT_EQ(gpu.best.moves, cpu.best.moves);
}

TEST_F(BeamSearchTest, TheGpuRunEqualsTheCpuRun) {
  GSDK_REQUIRE_GPU();
  const auto game = tree(17, 15);
  core::BeamSettings s = settings(500, 2, 6);
  s.budget.restarts = 2;
  const core::NestedSearchOutcome cpu = run(*game, s, 2);
  const auto device = core::make_cuda_beam_device(*game, 0, s.width);
  const core::NestedSearchOutcome gpu = core::run_beam(*game, s, *device);
  EXPECT_EQ(cpu.best.moves, gpu.best.moves);
  EXPECT_EQ(cpu.best_search, gpu.best_search);
  EXPECT_EQ(cpu.beam_children, gpu.beam_children);
  EXPECT_EQ(cpu.batches, gpu.batches);
}

} // namespace
