// conformance_test.cpp - the generic conformance suite, run on every plugin in bin/plugins (and on the
// test game in bin/test_plugins/valid) under its default parameters, and under a few more for games whose
// parameters change the shape of their states (kExtraCases): what every gsdk plugin must satisfy, checked
// through the ABI alone.
//  - negotiation: fields sane, foreign majors refused with a message;
//  - tables: right type tag and size, no null entries, parameter declarations sane;
//  - random games from the initial state through the per-state table: current_player in range, legal
//    move counts in (0, max_moves], distinct moves, chance probabilities summing to 1, per-state
//    calls pure, text round trips, no write outside state_size or the move buffers (guard regions),
//    terminal scores within score_range;
//  - playouts: batch (when a CPU table exists) and generic results consistent with themselves, the
//    same for 1 or 2 threads and any item size, replays reproducing the best and worst scores, the
//    exact score distribution (when given) a probability that the playouts fit;
//  - CPU and CUDA summaries identical (when a CUDA table exists and a GPU is present), and a CUDA
//    playout batch (when given) equal to the same states played one at a time on the CPU;
//  - a cpu_perft table (when given) counting what the per-state rules count, finished games included;
//  - a move-code table (when given): codes below code_count, the same on every call, distinct among the
//    legal moves of a state;
//  - an environment table (when given): sane counts, start states and steps; the plugin's CPU Q-learning
//    equal to the core's generic trainer over the per-state table, and CUDA equal to CPU.
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "plugins/game_params.hpp"
#include "gpu.hpp"
#include "gsdk/core/game_instance.hpp"
#include "gsdk/core/leaf_evaluator.hpp"
#include "gsdk/core/perft.hpp"
#include "gsdk/core/playouts.hpp"
#include "gsdk/core/qlearning.hpp"
#include "gsdk/qlearning/semantics.hpp"
#include "plugins/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::core::GameInstance;
using gsdk::core::PlayoutJob;
using gsdk::core::StateBlob;

std::vector<fs::path> plugin_files() {
  std::vector<fs::path> files = gsdk::test::shared_objects(gsdk::test::plugin_dir());
  for (const auto& f : gsdk::test::shared_objects(gsdk::test::test_plugin_dir("valid"))) files.push_back(f);
  return files;
}

// One plugin under one set of parameters (TOML, as a config's [params] would give them; empty: defaults).
struct PluginCase {
  fs::path file;
  std::string label;
  std::string params;
};

void PrintTo(const PluginCase& c, std::ostream* out) { *out << c.file.filename().string() << " " << c.params; }

// Games whose parameters change the shape of their states, or what their playouts report, get more cases
// than their defaults.
const std::map<std::string, std::vector<PluginCase>> kExtraCases = {
    {"snake.so",
     {{{}, "d5_free", "dimension = 5\nsymmetry_breaking = false"}, {{}, "d10_kinny", "dimension = 10\npolicy = 'kinny'"}}},
    {"othello.so", {{{}, "exact12", "exact_empties = 12"}, {{}, "corners", "playout_policy = 'corners'"},
                    {{}, "mobility", "playout_policy = 'mobility'"}}},
};

std::vector<PluginCase> plugin_cases() {
  std::vector<PluginCase> cases;
  for (const fs::path& file : plugin_files()) {
    cases.push_back({file, "", ""});
    const auto extra = kExtraCases.find(file.filename().string());
    if (extra == kExtraCases.end()) continue;
    for (PluginCase c : extra->second) {
      c.file = file;
      cases.push_back(c);
    }
  }
  return cases;
}

std::string test_name(const ::testing::TestParamInfo<PluginCase>& info) {
  std::string name = info.param.file.stem().string() + (info.param.label.empty() ? "" : "_" + info.param.label);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

constexpr size_t kGuard = 64;
constexpr unsigned char kGuardByte = 0x5a;
constexpr uint32_t kMoveSentinel = 0xdeadbeefu;
constexpr double kProbabilitySentinel = -7.0;

// A state with guard bytes on both sides, to catch writes outside state_size.
class GuardedState {
public:
  explicit GuardedState(uint32_t size) : size_(size), bytes_(size + 2 * kGuard, kGuardByte) {}
  void* data() { return bytes_.data() + kGuard; }
  const void* data() const { return bytes_.data() + kGuard; }
  StateBlob blob() const { return StateBlob(bytes_.begin() + kGuard, bytes_.begin() + kGuard + size_); }
  void assign(const StateBlob& s) { std::memcpy(data(), s.data(), size_); }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (bytes_[i] != kGuardByte || bytes_[kGuard + size_ + i] != kGuardByte) return false;
    return true;
  }

private:
  uint32_t size_;
  std::vector<unsigned char> bytes_;
};

class Conformance : public ::testing::TestWithParam<PluginCase> {
protected:
  void SetUp() override {
    plugin_ = catalog_.load_file(GetParam().file);
    ASSERT_NE(plugin_, nullptr) << GetParam().file << " refused: "
                                << (catalog_.problems().empty() ? "" : catalog_.problems()[0].message);
    const auto params = gsdk::host::resolve_params(*plugin_->tables.game, toml::parse(GetParam().params));
    game_ = std::make_unique<GameInstance>(plugin_->tables, params.values);
  }

  const gsdk_game& table() const { return *plugin_->tables.game; }
  const gsdk_game_instance* handle() const { return game_->handle(); }

  std::string to_string(const void* state) const {
    std::string text(4096, '\0');
    const uint32_t n = table().state_to_string(handle(), state, text.data(), static_cast<uint32_t>(text.size()));
    if (n >= text.size()) {
      text.assign(n + 1, '\0');
      table().state_to_string(handle(), state, text.data(), n + 1);
    }
    text.resize(n);
    return text;
  }

  // Plays one random game from `start`, checking every invariant along the way. Returns the moves.
  std::vector<uint32_t> play_random_game(std::mt19937_64& random, const StateBlob& start, int64_t* final_score,
                                         std::vector<StateBlob>* visited = nullptr) {
    const gsdk_game& g = table();
    const uint32_t size = game_->state_size();
    const uint32_t max_moves = game_->max_moves();
    const auto [score_min, score_max] = game_->score_range();
    GuardedState state(size);
    state.assign(start);
    std::vector<uint32_t> moves(max_moves + 16), again(max_moves + 16), played;
    std::vector<double> probabilities(max_moves + 16);
    for (int step = 0;; ++step) {
      if (step > 1000000) {
        ADD_FAILURE() << "a random game did not end within 10^6 moves";
        return played;
      }
      if (visited) visited->push_back(state.blob());
      const StateBlob before = state.blob();
      const int32_t player = g.current_player(handle(), state.data());
      EXPECT_EQ(g.current_player(handle(), state.data()), player) << "current_player must be a pure function";
      if (player == GSDK_PLAYER_TERMINAL) {
        const int64_t score = g.score(handle(), state.data());
        EXPECT_GE(score, score_min) << to_string(state.data());
        EXPECT_LE(score, score_max) << to_string(state.data());
        EXPECT_EQ(state.blob(), before) << "score must not change the state";
        if (final_score) *final_score = score;
        return played;
      }
      const bool chance = player == GSDK_PLAYER_CHANCE;
      if (!chance) {
        EXPECT_GE(player, 0);
        EXPECT_LT(player, static_cast<int32_t>(g.player_count)) << "current_player out of range";
      } else {
        EXPECT_TRUE(g.flags & GSDK_GAME_FLAG_CHANCE) << "a chance node in a game without GSDK_GAME_FLAG_CHANCE";
      }
      std::fill(moves.begin(), moves.end(), kMoveSentinel);
      std::fill(probabilities.begin(), probabilities.end(), kProbabilitySentinel);
      const uint32_t n = g.legal_moves(handle(), state.data(), moves.data(), chance ? probabilities.data() : nullptr);
      if (n == 0 || n > max_moves) {
        ADD_FAILURE() << n << " legal moves (max_moves " << max_moves << ") in non-terminal state "
                      << to_string(state.data());
        return played;
      }
      for (size_t k = max_moves; k < moves.size(); ++k) EXPECT_EQ(moves[k], kMoveSentinel) << "legal_moves overran";
      EXPECT_EQ(std::set<uint32_t>(moves.begin(), moves.begin() + n).size(), n) << "legal moves must be distinct";
      EXPECT_EQ(g.legal_moves(handle(), state.data(), again.data(), nullptr), n);
      EXPECT_TRUE(std::equal(moves.begin(), moves.begin() + n, again.begin())) << "legal_moves must be pure";
      uint32_t pick = static_cast<uint32_t>(random() % n);
      if (chance) {
        double sum = 0;
        for (uint32_t k = 0; k < n; ++k) {
          EXPECT_GE(probabilities[k], 0.0);
          EXPECT_LE(probabilities[k], 1.0);
          sum += probabilities[k];
        }
        for (size_t k = max_moves; k < probabilities.size(); ++k) EXPECT_EQ(probabilities[k], kProbabilitySentinel);
        EXPECT_NEAR(sum, 1.0, 1e-9) << "chance probabilities must sum to 1";
        double u = std::uniform_real_distribution<double>(0, sum)(random);
        for (pick = 0; pick + 1 < n && u >= probabilities[pick]; ++pick) u -= probabilities[pick];
      }
      // Text: the state round-trips, a short buffer still reports the full length, moves have names.
      const std::string text = to_string(state.data());
      char tiny[1] = {'x'};
      EXPECT_EQ(g.state_to_string(handle(), state.data(), tiny, 1), text.size());
      EXPECT_EQ(tiny[0], '\0');
      GuardedState parsed(size);
      char error[1024] = {};
      EXPECT_EQ(g.state_from_string(handle(), text.c_str(), parsed.data(), error, sizeof error), GSDK_OK)
          << "state_from_string(\"" << text << "\"): " << error;
      EXPECT_TRUE(parsed.guards_intact()) << "state_from_string wrote outside the state";
      EXPECT_EQ(parsed.blob(), state.blob()) << "state_from_string(state_to_string(s)) != s for " << text;
      char move_name[256] = {};
      EXPECT_GT(g.move_to_string(handle(), state.data(), moves[pick], move_name, sizeof move_name), 0u);
      EXPECT_EQ(state.blob(), before) << "a per-state query changed the state";

      g.apply_move(handle(), state.data(), moves[pick]);
      played.push_back(moves[pick]);
      if (!state.guards_intact()) {
        ADD_FAILURE() << "apply_move wrote outside the state's " << size << " bytes";
        return played;
      }
    }
  }

  gsdk::host::PluginCatalog catalog_;
  const gsdk::host::LoadedPlugin* plugin_ = nullptr;
  std::unique_ptr<GameInstance> game_;
};

TEST_P(Conformance, NegotiationFieldsAreSane) {
  const gsdk_plugin_info& info = plugin_->tables.info;
  EXPECT_EQ(info.header.type, GSDK_TYPE_PLUGIN_INFO);
  EXPECT_EQ(info.header.size, sizeof(gsdk_plugin_info));
  EXPECT_EQ(info.abi_major, GSDK_ABI_MAJOR);
  EXPECT_LE(info.abi_minor, GSDK_ABI_MINOR);
  ASSERT_NE(info.plugin_name, nullptr);
  EXPECT_TRUE(std::regex_match(info.plugin_name, std::regex("[a-z][a-z0-9_]*"))) << info.plugin_name;
  ASSERT_NE(info.plugin_version, nullptr);
  EXPECT_TRUE(std::regex_match(info.plugin_version, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+([-+].*)?")))
      << info.plugin_version;
  ASSERT_NE(info.get_proc, nullptr);
  EXPECT_EQ(info.get_proc("gsdk.no_such_table.v1"), nullptr);
  EXPECT_STREQ(table().name, info.plugin_name) << "the game's name is the plugin's name";

  // Asked for majors it does not speak, it refuses with a message and a version status.
  auto negotiate = plugin_->library.get<int32_t(const gsdk_negotiation*, gsdk_plugin_info*, char*, uint32_t)>(
      GSDK_ENTRY_SYMBOL);
  const gsdk_negotiation newer = {{GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR + 1,
                                  GSDK_ABI_MAJOR + 3, nullptr};
  gsdk_plugin_info answer{};
  answer.header = {GSDK_TYPE_PLUGIN_INFO, sizeof answer};
  char error[1024] = {};
  EXPECT_EQ(negotiate(&newer, &answer, error, sizeof error), GSDK_ERR_VERSION);
  EXPECT_NE(std::string(error).find(std::to_string(GSDK_ABI_MAJOR + 1) + ".." + std::to_string(GSDK_ABI_MAJOR + 3)),
            std::string::npos)
      << "the refusal must name the host's range: " << error;
}

TEST_P(Conformance, TablesHaveTheRightTypeSizeAndEntries) {
  const auto& t = plugin_->tables;
  const auto header = [&](const char* name) { return static_cast<const gsdk_header*>(t.info.get_proc(name)); };
  const gsdk_game& g = table();
  EXPECT_EQ(g.header.type, GSDK_TYPE_GAME);
  EXPECT_GE(g.header.size, sizeof(gsdk_game));
  EXPECT_NE(g.name, nullptr);
  EXPECT_NE(g.description, nullptr);
  EXPECT_GE(g.player_count, 1u);
  EXPECT_EQ(g.flags & ~GSDK_GAME_FLAG_CHANCE, 0u) << "unknown flag bits";
  for (const void* fn : {(const void*)g.create, (const void*)g.destroy, (const void*)g.state_size,
                         (const void*)g.max_moves, (const void*)g.score_range, (const void*)g.initial_state,
                         (const void*)g.current_player, (const void*)g.legal_moves, (const void*)g.apply_move,
                         (const void*)g.score, (const void*)g.state_to_string, (const void*)g.move_to_string,
                         (const void*)g.state_from_string})
    EXPECT_NE(fn, nullptr) << "a null entry in the game table";
  if (const auto* h = header(GSDK_TABLE_CPU_PLAYOUTS)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CPU_PLAYOUTS);
    EXPECT_GE(h->size, sizeof(gsdk_cpu_playouts));
    EXPECT_NE(t.cpu_playouts->best_simd_level, nullptr);
    EXPECT_NE(t.cpu_playouts->run, nullptr);
    const int32_t level = t.cpu_playouts->best_simd_level();
    EXPECT_GE(level, GSDK_SIMD_SCALAR);
    EXPECT_LE(level, GSDK_SIMD_AVX512);
  }
  if (const auto* h = header(GSDK_TABLE_CUDA_PLAYOUTS)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CUDA_PLAYOUTS);
    EXPECT_GE(h->size, sizeof(gsdk_cuda_playouts));
    EXPECT_NE(t.cuda_playouts->scratch_bytes, nullptr);
    EXPECT_NE(t.cuda_playouts->run, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_CUDA_PLAYOUT_BATCHES)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CUDA_PLAYOUT_BATCHES);
    EXPECT_GE(h->size, sizeof(gsdk_cuda_playout_batches));
    EXPECT_NE(t.cuda_playout_batches->run, nullptr);
    EXPECT_NE(t.cuda_playouts, nullptr) << "a playout-batch table without the single-start CUDA table";
  }
  if (const auto* h = header(GSDK_TABLE_REPLAY)) {
    EXPECT_EQ(h->type, GSDK_TYPE_REPLAY);
    EXPECT_GE(h->size, sizeof(gsdk_replay));
    EXPECT_NE(t.replay->playout_moves, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_ENVIRONMENT)) {
    EXPECT_EQ(h->type, GSDK_TYPE_ENVIRONMENT);
    EXPECT_GE(h->size, sizeof(gsdk_environment));
    for (const void* fn : {(const void*)t.environment->state_count, (const void*)t.environment->action_count,
                           (const void*)t.environment->agent_count, (const void*)t.environment->step_limit,
                           (const void*)t.environment->start_states, (const void*)t.environment->step})
      EXPECT_NE(fn, nullptr) << "a null entry in the environment table";
  }
  if (const auto* h = header(GSDK_TABLE_CPU_QLEARNING)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CPU_QLEARNING);
    EXPECT_NE(t.cpu_qlearning->train, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_CUDA_QLEARNING)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CUDA_QLEARNING);
    EXPECT_NE(t.cuda_qlearning->scratch_bytes, nullptr);
    EXPECT_NE(t.cuda_qlearning->train, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_RENDER)) {
    EXPECT_EQ(h->type, GSDK_TYPE_RENDER);
    EXPECT_NE(t.render->policy_image, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_MOVE_CODES)) {
    EXPECT_EQ(h->type, GSDK_TYPE_MOVE_CODES);
    EXPECT_GE(h->size, sizeof(gsdk_move_codes));
    EXPECT_NE(t.move_codes->code_count, nullptr);
    EXPECT_NE(t.move_codes->move_code, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_EXACT_STATES)) {
    EXPECT_EQ(h->type, GSDK_TYPE_EXACT_STATES);
    EXPECT_GE(h->size, sizeof(gsdk_exact_states));
    EXPECT_NE(t.exact_states->is_exact, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_CUDA_LEVEL1_SEARCHES)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CUDA_LEVEL1_SEARCHES);
    EXPECT_GE(h->size, sizeof(gsdk_cuda_level1_searches));
    EXPECT_NE(t.cuda_level1_searches->max_game_length, nullptr);
    EXPECT_NE(t.cuda_level1_searches->run, nullptr);
  }
  if (const auto* h = header(GSDK_TABLE_CUDA_LEVEL2_SEARCHES)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CUDA_LEVEL2_SEARCHES);
    EXPECT_GE(h->size, sizeof(gsdk_cuda_level2_searches));
    EXPECT_NE(t.cuda_level2_searches->scratch_bytes, nullptr);
    EXPECT_NE(t.cuda_level2_searches->run, nullptr);
    EXPECT_NE(t.cuda_level1_searches, nullptr) << "level-2 searches on a device come with the level-1 table";
  }
  if (const auto* h = header(GSDK_TABLE_CUDA_NRPA_SEARCHES)) {
    EXPECT_EQ(h->type, GSDK_TYPE_CUDA_NRPA_SEARCHES);
    EXPECT_GE(h->size, sizeof(gsdk_cuda_nrpa_searches));
    EXPECT_NE(t.cuda_nrpa_searches->max_game_length, nullptr);
    EXPECT_NE(t.cuda_nrpa_searches->scratch_bytes, nullptr);
    EXPECT_NE(t.cuda_nrpa_searches->run, nullptr);
    EXPECT_NE(t.move_codes, nullptr) << "NRPA on a device needs the game's move codes too";
  }
  if (const auto* h = header(GSDK_TABLE_SCORE_DISTRIBUTION)) {
    EXPECT_EQ(h->type, GSDK_TYPE_SCORE_DISTRIBUTION);
    EXPECT_GE(h->size, sizeof(gsdk_score_distribution));
    EXPECT_NE(t.score_distribution->exact, nullptr);
  }
}

TEST_P(Conformance, ParameterDeclarationsAreSane) {
  const gsdk_game& g = table();
  std::set<std::string> names;
  for (uint32_t i = 0; i < g.param_count; ++i) {
    const gsdk_param_desc& d = g.params[i];
    ASSERT_NE(d.name, nullptr);
    EXPECT_TRUE(names.insert(d.name).second) << "duplicate parameter " << d.name;
    EXPECT_NE(d.doc, nullptr) << d.name;
    EXPECT_GE(d.type, GSDK_PARAM_INT);
    EXPECT_LE(d.type, GSDK_PARAM_STRING);
    if (d.type == GSDK_PARAM_INT) {
      EXPECT_LE(d.min_value, static_cast<double>(d.default_int)) << d.name;
      EXPECT_GE(d.max_value, static_cast<double>(d.default_int)) << d.name;
    }
    if (d.type == GSDK_PARAM_REAL) {
      EXPECT_LE(d.min_value, d.default_real) << d.name;
      EXPECT_GE(d.max_value, d.default_real) << d.name;
    }
    if (d.type == GSDK_PARAM_BOOL) {
      EXPECT_TRUE(d.default_int == 0 || d.default_int == 1) << d.name;
    }
  }
  // Defaults were accepted by create() in SetUp; the instance describes itself consistently.
  EXPECT_GT(game_->state_size(), 0u);
  EXPECT_GT(game_->max_moves(), 0u);
  EXPECT_LE(game_->score_range().first, game_->score_range().second);
}

TEST_P(Conformance, InitialStateIsWrittenWithinItsSize) {
  GuardedState s(game_->state_size());
  table().initial_state(handle(), s.data());
  EXPECT_TRUE(s.guards_intact());
  GuardedState t(game_->state_size());
  std::memset(t.data(), 0xee, game_->state_size());
  table().initial_state(handle(), t.data());
  EXPECT_EQ(s.blob(), t.blob()) << "initial_state must write every byte (no leftovers of the buffer)";
}

TEST_P(Conformance, RandomGamesKeepEveryInvariant) {
  std::mt19937_64 random(20240601);
  const StateBlob start = game_->initial_state();
  uint64_t total_moves = 0;
  for (int game = 0; game < 300 && total_moves < 300000 && !HasFailure(); ++game) {
    int64_t score = 0;
    total_moves += play_random_game(random, start, &score).size();
  }
  EXPECT_GT(total_moves, 0u);
}

TEST_P(Conformance, RandomGamesFromMidGameStates) {
  // States reached in play are valid starts too (state_from_string of their text, then play on).
  std::mt19937_64 random(77);
  std::vector<StateBlob> visited;
  int64_t score = 0;
  play_random_game(random, game_->initial_state(), &score, &visited);
  ASSERT_FALSE(visited.empty());
  for (size_t i = 0; i < visited.size() && !HasFailure(); i += std::max<size_t>(1, visited.size() / 20)) {
    const StateBlob parsed = game_->state_from_string(game_->state_to_string(visited[i]));
    for (int k = 0; k < 3; ++k) play_random_game(random, parsed, &score);
  }
}

TEST_P(Conformance, StateFromStringRefusesGarbage) {
  GuardedState s(game_->state_size());
  char error[1024] = {};
  EXPECT_NE(table().state_from_string(handle(), "\x01 certainly not a state \x02", s.data(), error, sizeof error), GSDK_OK);
  EXPECT_NE(error[0], '\0') << "a refusal must say why";
  EXPECT_TRUE(s.guards_intact());
}

// Checks a playout result against itself and the game; replays the extremes when possible.
void check_result(const GameInstance& game, const gsdk::core::PlayoutOutcome& out, const PlayoutJob& job,
                  const StateBlob& start) {
  const auto& r = out.result;
  ASSERT_TRUE(out.error.empty()) << out.error;
  ASSERT_EQ(r.playouts, job.playouts);
  uint64_t sum = 0;
  for (uint64_t c : r.histogram) sum += c;
  EXPECT_EQ(sum, job.playouts) << "histogram sum must equal the playouts";
  const auto [lo, hi] = game.score_range();
  ASSERT_GE(r.worst_score, lo);
  ASSERT_LE(r.best_score, hi);
  ASSERT_LE(r.worst_score, r.best_score);
  EXPECT_LT(r.best_playout, job.playouts);
  EXPECT_LT(r.worst_playout, job.playouts);
  EXPECT_GT(r.histogram[static_cast<size_t>(r.best_score - lo)], 0u);
  EXPECT_GT(r.histogram[static_cast<size_t>(r.worst_score - lo)], 0u);
  for (int64_t s = lo; s <= hi; ++s)
    if (s < r.worst_score || s > r.best_score) {
      EXPECT_EQ(r.histogram[static_cast<size_t>(s - lo)], 0u) << s;
    }

  // Replays of the extremes reproduce their scores.
  const auto replay_score = [&](uint64_t playout) -> int64_t {
    std::vector<uint32_t> moves;
    if (out.engine == "generic") return gsdk::core::generic_playout(game, job.seed, playout, start, &moves);
    const auto* replay = game.tables().replay;
    moves.resize(1u << 20);
    char error[1024] = {};
    const uint32_t n = replay->playout_moves(game.handle(), job.seed, playout,
                                             job.start_state ? start.data() : nullptr, moves.data(),
                                             static_cast<uint32_t>(moves.size()), error, sizeof error);
    EXPECT_FALSE(n == 0 && error[0]) << error;
    StateBlob s = start;
    for (uint32_t k = 0; k < n; ++k) game.apply_move(s, moves[k]);
    EXPECT_EQ(game.current_player(s), GSDK_PLAYER_TERMINAL) << "a replay must end in a terminal state";
    return game.score(s);
  };
  if (out.engine == "generic" || game.tables().replay) {
    EXPECT_EQ(replay_score(r.best_playout), r.best_score) << "replay of the best playout";
    EXPECT_EQ(replay_score(r.worst_playout), r.worst_score) << "replay of the worst playout";
  }
}

TEST_P(Conformance, BatchPlayoutsAreConsistent) {
  if (!plugin_->tables.cpu_playouts) GTEST_SKIP() << "no CPU batch table";
  PlayoutJob job;
  job.seed = 31337;
  job.playouts = 200003;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 65537;
  const auto out = gsdk::core::run_playouts(*game_, job);
  EXPECT_EQ(out.engine, "batch");
  check_result(*game_, out, job, game_->initial_state());
  job.cpu_threads = 1;
  job.cpu_item_playouts = 1u << 22;
  EXPECT_EQ(gsdk::core::run_playouts(*game_, job).result.digest(), out.result.digest());
}

TEST_P(Conformance, BatchPlayoutsFromAMidGameState) {
  if (!plugin_->tables.cpu_playouts) GTEST_SKIP() << "no CPU batch table";
  std::mt19937_64 random(5);
  std::vector<StateBlob> visited;
  int64_t score = 0;
  play_random_game(random, game_->initial_state(), &score, &visited);
  PlayoutJob job;
  job.seed = 99;
  job.playouts = 50001;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 4099;
  job.start_state = visited[visited.size() / 2];
  const auto out = gsdk::core::run_playouts(*game_, job);
  check_result(*game_, out, job, *job.start_state);
}

TEST_P(Conformance, GenericPlayoutsAreConsistent) {
  PlayoutJob job;
  job.seed = 4242;
  job.playouts = 3001;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 97;
  job.force_generic = true;
  const auto out = gsdk::core::run_playouts(*game_, job);
  EXPECT_EQ(out.engine, "generic");
  check_result(*game_, out, job, game_->initial_state());
  job.cpu_threads = 1;
  job.cpu_item_playouts = 1u << 22;
  EXPECT_EQ(gsdk::core::run_playouts(*game_, job).result.digest(), out.result.digest());
}

TEST_P(Conformance, ExactScoreDistributionFitsThePlayouts) {
  const auto* table = plugin_->tables.score_distribution;
  if (!table) GTEST_SKIP() << "no exact score distribution";
  std::vector<double> p(game_->histogram_bins());
  char error[1024] = {};
  ASSERT_EQ(table->exact(handle(), p.data(), static_cast<uint32_t>(p.size()), error, sizeof error), GSDK_OK) << error;
  double sum = 0;
  for (double x : p) {
    EXPECT_GE(x, 0.0);
    sum += x;
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_NE(table->exact(handle(), p.data(), static_cast<uint32_t>(p.size()) + 1, error, sizeof error), GSDK_OK)
      << "a wrong bin count must be refused";
  PlayoutJob job;
  job.seed = 8;
  job.playouts = plugin_->tables.cpu_playouts ? 1000000 : 20000;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 1u << 18;
  const auto out = gsdk::core::run_playouts(*game_, job);
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_GT(gsdk::core::chi_square(out.result.histogram, p).p_value, 1e-5);
}

TEST_P(Conformance, CpuAndCudaSummariesAreIdentical) {
  if (!plugin_->tables.cuda_playouts) GTEST_SKIP() << "no CUDA table";
  GSDK_REQUIRE_GPU();
  PlayoutJob job;
  job.seed = 77;
  job.playouts = 4000037;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 1u << 20;
  const auto cpu = gsdk::core::run_playouts(*game_, job);
  ASSERT_TRUE(cpu.error.empty()) << cpu.error;
  job.cpu_threads = 0;
  job.cuda_devices = {0};
  const auto gpu = gsdk::core::run_playouts(*game_, job);
  ASSERT_TRUE(gpu.error.empty()) << gpu.error;
  EXPECT_EQ(gpu.result.canonical(), cpu.result.canonical());
  EXPECT_EQ(gpu.timings.cuda_playouts, job.playouts);
}

TEST_P(Conformance, CudaPlayoutBatchesEqualTheCpuOneStateAtATime) {
  if (!plugin_->tables.cuda_playout_batches) GTEST_SKIP() << "no CUDA playout-batch table";
  GSDK_REQUIRE_GPU();
  std::mt19937_64 random(23);
  std::vector<unsigned char> packed;
  uint32_t count = 0;
  for (int g = 0; g < 40; ++g) {
    std::vector<StateBlob> visited;
    int64_t score = 0;
    play_random_game(random, game_->initial_state(), &score, &visited);
    for (size_t i = 0; i < visited.size(); i += 3) {
      if (game_->current_player(visited[i]) < 0) continue;
      packed.insert(packed.end(), visited[i].begin(), visited[i].end());
      ++count;
    }
  }
  const auto cpu = gsdk::core::make_cpu_evaluator(*game_);
  const auto gpu = gsdk::core::make_cuda_evaluator(*game_, 0, 1 << 16, 64);
  cpu->reseed(61);
  gpu->reseed(61);
  const auto want = cpu->evaluate_batch(packed, count, 53);
  const auto got = gpu->evaluate_batch(packed, count, 53);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].wins, want[i].wins) << "state " << i;
    EXPECT_EQ(got[i].draws, want[i].draws) << "state " << i;
    EXPECT_EQ(got[i].losses, want[i].losses) << "state " << i;
  }
}

TEST_P(Conformance, MoveCodesAreInRangeDeterministicAndDistinctPerState) {
  const auto* codes = plugin_->tables.move_codes;
  if (!codes) GTEST_SKIP() << "no move-code table";
  const uint32_t code_count = codes->code_count(handle());
  ASSERT_GE(code_count, 1u);
  std::mt19937_64 random(29);
  std::vector<uint32_t> moves(game_->max_moves());
  for (int g = 0; g < 20; ++g) {
    std::vector<StateBlob> visited;
    int64_t score = 0;
    play_random_game(random, game_->initial_state(), &score, &visited);
    for (const StateBlob& s : visited) {
      if (game_->current_player(s) < 0) continue;
      const uint32_t n = game_->legal_moves(s, moves.data(), nullptr);
      std::set<uint32_t> seen;
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t code = codes->move_code(handle(), s.data(), moves[k]);
        ASSERT_LT(code, code_count) << "move " << moves[k] << " in " << to_string(s.data());
        EXPECT_EQ(codes->move_code(handle(), s.data(), moves[k]), code) << "move_code must be a pure function";
        EXPECT_TRUE(seen.insert(code).second) << "two legal moves share code " << code << " in " << to_string(s.data());
      }
    }
  }
}

TEST_P(Conformance, ExactStatesGetOneOutcomeFromEveryPlayout) {
  if (!plugin_->tables.exact_states) GTEST_SKIP() << "no exact-states table";
  const auto evaluator = gsdk::core::make_cpu_evaluator(*game_);
  std::mt19937_64 random(31);
  int exact = 0;
  for (int g = 0; g < 20; ++g) {
    std::vector<StateBlob> visited;
    int64_t score = 0;
    play_random_game(random, game_->initial_state(), &score, &visited);
    for (const StateBlob& s : visited) {
      if (game_->current_player(s) < 0 || !game_->is_exact(s.data())) continue;
      ++exact;
      const auto r = evaluator->evaluate(s, 16);
      EXPECT_TRUE(r.wins == 16 || r.draws == 16 || r.losses == 16)
          << "is_exact says the playouts from " << to_string(s.data()) << " report one outcome, got " << r.wins
          << " wins, " << r.draws << " draws, " << r.losses << " losses";
    }
  }
  if (exact == 0) GTEST_SKIP() << "no exact state in 20 random games under the default parameters";
}

TEST_P(Conformance, CpuPerftTableAgreesWithThePerStateRules) {
  const auto* table = plugin_->tables.cpu_perft;
  if (!table) GTEST_SKIP() << "no CPU perft table";
  std::mt19937_64 random(11);
  std::vector<StateBlob> visited;
  int64_t score = 0;
  play_random_game(random, game_->initial_state(), &score, &visited);
  ASSERT_FALSE(visited.empty());
  // The last state visited is a finished game: no leaves below it at any depth.
  const std::vector<StateBlob> roots = {game_->initial_state(), visited[visited.size() / 3],
                                        visited[2 * visited.size() / 3], visited.back()};
  for (const StateBlob& root : roots) {
    for (uint32_t depth = 1; depth <= 8 && !HasFailure(); ++depth) {
      const gsdk::core::uint128 expected = gsdk::core::generic_perft(*game_, root, depth);
      uint64_t leaves = 0;
      char error[1024] = {};
      ASSERT_EQ(table->count(handle(), root.data(), depth, &leaves, error, sizeof error), GSDK_OK) << error;
      EXPECT_EQ(leaves, expected) << "cpu_perft(" << game_->state_to_string(root) << ", " << depth << ")";
      // The driver, which splits the tree into subtrees for the table, agrees too.
      gsdk::core::PerftJob job;
      job.root = root;
      job.depth = depth;
      job.cpu_threads = 2;
      const gsdk::core::PerftOutcome out = gsdk::core::run_perft(*game_, job);
      ASSERT_TRUE(out.error.empty()) << out.error;
      EXPECT_EQ(out.leaves, expected) << "run_perft(" << game_->state_to_string(root) << ", " << depth << ")";
      if (expected > 100000) break;
    }
  }
}

TEST_P(Conformance, EnvironmentStartsAndStepsAreSane) {
  const gsdk_environment* env = plugin_->tables.environment;
  if (!env) GTEST_SKIP() << "no environment table";
  const uint32_t states = env->state_count(handle()), actions = env->action_count(handle());
  EXPECT_GE(states, 1u);
  EXPECT_GE(actions, 1u);
  EXPECT_LE(actions, gsdk::qlearning::kMaxActions);
  EXPECT_GE(env->agent_count(handle()), 1u);
  EXPECT_GE(env->step_limit(handle()), 1u);
  const uint32_t count = env->start_states(handle(), nullptr, 0);
  ASSERT_GE(count, 1u);
  std::vector<uint32_t> starts(count + 1, kMoveSentinel);
  EXPECT_EQ(env->start_states(handle(), starts.data(), count), count);
  EXPECT_EQ(starts[count], kMoveSentinel) << "start_states wrote past its capacity";
  starts.pop_back();
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
  EXPECT_EQ(std::set<uint32_t>(starts.begin(), starts.end()).size(), count) << "start states must be distinct";
  // Every state reachable from the starts (up to 20000) steps into range, the same way each time.
  std::set<uint32_t> seen(starts.begin(), starts.end());
  std::vector<uint32_t> frontier(starts.begin(), starts.end());
  while (!frontier.empty() && seen.size() < 20000 && !HasFailure()) {
    const uint32_t s = frontier.back();
    frontier.pop_back();
    EXPECT_LT(s, states);
    for (uint32_t a = 0; a < actions; ++a) {
      uint32_t next = 0, again = 0;
      float reward = 0, reward_again = 0;
      int32_t terminal = 0, terminal_again = 0;
      env->step(handle(), s, a, &next, &reward, &terminal);
      env->step(handle(), s, a, &again, &reward_again, &terminal_again);
      EXPECT_EQ(next, again);
      EXPECT_EQ(reward, reward_again);
      EXPECT_EQ(terminal, terminal_again);
      EXPECT_LT(next, states) << "step(" << s << ", " << a << ")";
      EXPECT_TRUE(std::isfinite(reward));
      if (!terminal && seen.insert(next).second) frontier.push_back(next);
    }
  }
}

gsdk::core::QLearningJob small_qlearning_job() {
  gsdk::core::QLearningJob job;
  job.settings.seed = 5;
  job.settings.environments = 3;
  job.settings.episodes = 12;
  job.settings.epsilon_decay = 0.8;
  job.settings.test_episodes = 2;
  job.count_visits = true;
  return job;
}

TEST_P(Conformance, CpuQLearningTableMatchesTheGenericTrainer) {
  if (!plugin_->tables.environment) GTEST_SKIP() << "no environment table";
  gsdk::core::QLearningJob job = small_qlearning_job();
  job.cpu_threads = 1;
  job.force_generic = true;
  const auto generic = gsdk::core::run_qlearning(*game_, job);
  ASSERT_TRUE(generic.error.empty()) << generic.error;
  EXPECT_EQ(generic.engine, "generic");
  job.force_generic = false;
  job.cpu_threads = 2;
  const auto batch = gsdk::core::run_qlearning(*game_, job);
  ASSERT_TRUE(batch.error.empty()) << batch.error;
  EXPECT_EQ(batch.digest(), generic.digest());
  EXPECT_EQ(batch.visits, generic.visits);
  EXPECT_EQ(batch.agent_steps, generic.agent_steps);
  EXPECT_GT(batch.agent_steps, 0u);
}

TEST_P(Conformance, CpuAndCudaQLearningAreIdentical) {
  if (!plugin_->tables.cuda_qlearning) GTEST_SKIP() << "no CUDA Q-learning table";
  GSDK_REQUIRE_GPU();
  gsdk::core::QLearningJob job = small_qlearning_job();
  job.cpu_threads = 2;
  const auto cpu = gsdk::core::run_qlearning(*game_, job);
  ASSERT_TRUE(cpu.error.empty()) << cpu.error;
  job.cuda_devices = {0};
  const auto gpu = gsdk::core::run_qlearning(*game_, job);
  ASSERT_TRUE(gpu.error.empty()) << gpu.error;
  EXPECT_EQ(gpu.device, "cuda");
  EXPECT_EQ(gpu.digest(), cpu.digest());
  EXPECT_EQ(gpu.visits, cpu.visits);
}

INSTANTIATE_TEST_SUITE_P(EveryPlugin, Conformance, ::testing::ValuesIn(plugin_cases()), test_name);

TEST(ConformanceSetup, FindsTheBuiltPlugins) {
  const auto files = plugin_files();
  EXPECT_TRUE(std::any_of(files.begin(), files.end(), [](const fs::path& f) { return f.filename() == "graveler.so"; }))
      << "bin/plugins/graveler.so is missing: the conformance suite would test nothing";
}

} // namespace
