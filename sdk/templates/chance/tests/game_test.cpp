// game_test.cpp - coin_runs' own checks, framework-free so the template needs nothing beyond sdk/:
// the exact distribution against brute force, text I/O and its errors, batch playouts against the
// per-state rules and replay, split invariance, and the C entry point.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "device_rules.hpp"
#include "game.hpp"
#include "gsdk/playout_summary.hpp"

namespace {

int failures = 0;

#define CHECK(condition)                                                                                               \
  do {                                                                                                                 \
    if (!(condition)) {                                                                                                \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #condition);                               \
      ++failures;                                                                                                      \
    }                                                                                                                  \
  } while (0)

coin_runs::Game make_game(int64_t flips) {
  const gsdk_param_value value = {"flips", GSDK_PARAM_INT, 0, flips, 0.0, nullptr};
  return coin_runs::Game(gsdk::Params(&value, 1));
}

struct Summary {
  explicit Summary(uint32_t bins) : histogram(bins) {
    s.histogram = histogram.data();
    s.histogram_bins = bins;
    gsdk::reset_summary(s);
  }
  std::vector<uint64_t> histogram;
  gsdk_playout_summary s{};
};

gsdk_playout_request request(uint64_t seed, uint64_t first, uint64_t count, const void* start = nullptr) {
  return {{GSDK_TYPE_PLAYOUT_REQUEST, sizeof(gsdk_playout_request)}, seed, first, count, start, GSDK_SIMD_SCALAR, 0};
}

std::string error_of(const coin_runs::Game& game, const char* text) {
  try {
    game.state_from_string(text);
  } catch (const gsdk::PluginError& e) {
    return e.what();
  }
  return "";
}

void exact_distribution_matches_enumeration() {
  for (int n = 1; n <= 16; ++n) {
    std::vector<double> counts(static_cast<size_t>(n) + 1, 0.0);
    for (uint32_t bits = 0; bits < (1u << n); ++bits) {
      int run = 0, longest = 0;
      for (int i = 0; i < n; ++i) {
        run = (bits >> i) & 1u ? run + 1 : 0;
        longest = run > longest ? run : longest;
      }
      counts[static_cast<size_t>(longest)] += 1;
    }
    std::vector<double> p(static_cast<size_t>(n) + 1);
    make_game(n).exact_score_distribution(p.data(), static_cast<uint32_t>(p.size()));
    for (int k = 0; k <= n; ++k) CHECK(std::abs(p[k] - std::ldexp(counts[k], -n)) <= 1e-14 * p[k]);
  }
  for (int n : {100, 4096}) {
    std::vector<double> p(static_cast<size_t>(n) + 1);
    make_game(n).exact_score_distribution(p.data(), static_cast<uint32_t>(p.size()));
    double sum = 0;
    for (double x : p) {
      CHECK(x >= 0);
      sum += x;
    }
    CHECK(std::abs(sum - 1) < 1e-12);
    CHECK(p[0] == std::ldexp(1.0, -n) || n > 1074); // all tails, to full precision
  }
}

void text_round_trips_and_errors_are_precise() {
  const coin_runs::Game game = make_game(10);
  for (const char* text : {"flips=0 run=0 longest=0", "flips=10 run=3 longest=3", "flips=7 run=2 longest=4"}) {
    const coin_runs::State s = game.state_from_string(text);
    CHECK(game.state_to_string(s) == text);
  }
  CHECK(error_of(game, "flips=3").find("expected \"flips=F run=R longest=L\"") != std::string::npos);
  CHECK(error_of(game, "flips=-1 run=0 longest=0").find("expected") != std::string::npos);
  CHECK(error_of(game, "flips=1 run=0 longest=0 x").find("expected") != std::string::npos);
  CHECK(error_of(game, "flips=11 run=0 longest=0").find("exceeds the game's 10 flips") != std::string::npos);
  CHECK(error_of(game, "flips=3 run=0 longest=4").find("longest=4 exceeds flips=3") != std::string::npos);
  CHECK(error_of(game, "flips=5 run=3 longest=2").find("run=3 exceeds longest=2") != std::string::npos);
  CHECK(error_of(game, "flips=6 run=2 longest=4").find("needs at least 7 flips") != std::string::npos);
}

void batch_matches_rules_and_replay() {
  const coin_runs::Game game = make_game(100);
  const uint64_t seed = 7, count = 1000;
  Summary whole(101);
  game.cpu_playouts(request(seed, 0, count), whole.s);
  CHECK(whole.s.playouts == count);

  // Every playout's replayed moves, applied through the per-state rules, give the score the batch counted.
  Summary rebuilt(101);
  for (uint64_t i = 0; i < count; ++i) {
    coin_runs::State s;
    game.initial_state(s);
    for (uint32_t move : game.replay_playout(seed, i, nullptr)) {
      CHECK(game.current_player(s) == GSDK_PLAYER_CHANCE);
      game.apply_move(s, move);
    }
    CHECK(game.current_player(s) == GSDK_PLAYER_TERMINAL);
    gsdk::record_playout(rebuilt.s, game.score(s), i, 0);
  }
  CHECK(rebuilt.histogram == whole.histogram);
  CHECK(rebuilt.s.best_score == whole.s.best_score && rebuilt.s.best_playout == whole.s.best_playout);

  // Any split of the range gives the same summary.
  Summary split(101);
  game.cpu_playouts(request(seed, 0, 333), split.s);
  game.cpu_playouts(request(seed, 333, count - 333), split.s);
  CHECK(split.histogram == whole.histogram && split.s.worst_playout == whole.s.worst_playout);

  // From a start state, scores never fall below the longest run already made.
  const coin_runs::State start = game.state_from_string("flips=90 run=1 longest=6");
  Summary from(101);
  game.cpu_playouts(request(seed, 0, count, &start), from.s);
  CHECK(from.s.playouts == count && from.s.worst_score >= 6);
  CHECK(game.replay_playout(seed, 5, &start).size() == 10);
}

// The device rules, which the CUDA table plays, list the per-state table's moves and play replay's flips.
void device_rules_play_as_the_cpu_does() {
  const coin_runs::Game game = make_game(100);
  const coin_runs::DeviceRules rules{{}, game.flips()};
  for (const char* text : {"flips=0 run=0 longest=0", "flips=90 run=1 longest=6", "flips=100 run=0 longest=7"}) {
    const coin_runs::State start = game.state_from_string(text);
    uint32_t listed[2], n = 0;
    for (auto rest = rules.legal_moves(start); !rest.empty(); rest = rest.without_first()) listed[n++] = rest.first();
    uint32_t expected[2];
    CHECK(n == game.legal_moves(start, expected, nullptr));
    for (uint32_t k = 0; k < n; ++k) CHECK(listed[k] == expected[k]);
    for (uint64_t playout = 0; playout < 20; ++playout) {
      coin_runs::State end = start;
      std::vector<uint32_t> flips;
      rules.playout(end, 7, playout, [&flips](uint32_t flip) { flips.push_back(flip); });
      CHECK(flips == game.replay_playout(7, playout, &start));
      coin_runs::State replayed = start;
      for (uint32_t flip : flips) rules.play(replayed, flip);
      CHECK(rules.score(end) == game.score(replayed) && game.current_player(end) == GSDK_PLAYER_TERMINAL);
    }
  }
}

void entry_point_negotiates() {
  const gsdk_negotiation ok = {
      {GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR, GSDK_ABI_MAJOR, nullptr};
  gsdk_plugin_info info{};
  info.header = {GSDK_TYPE_PLUGIN_INFO, sizeof(gsdk_plugin_info)};
  char error[256] = {};
  CHECK(gsdk_negotiate(&ok, &info, error, sizeof error) == GSDK_OK);
  CHECK(std::strcmp(info.plugin_name, "coin_runs") == 0);
  CHECK(info.get_proc(GSDK_TABLE_GAME) && info.get_proc(GSDK_TABLE_CPU_PLAYOUTS) && info.get_proc(GSDK_TABLE_REPLAY));
  CHECK(info.get_proc(GSDK_TABLE_SCORE_DISTRIBUTION));
#if defined(GSDK_WITH_CUDA)
  CHECK(info.get_proc(GSDK_TABLE_CUDA_PLAYOUTS));
#else
  CHECK(!info.get_proc(GSDK_TABLE_CUDA_PLAYOUTS));
#endif

  const gsdk_negotiation future = {
      {GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR + 1, GSDK_ABI_MAJOR + 1, nullptr};
  CHECK(gsdk_negotiate(&future, &info, error, sizeof error) == GSDK_ERR_VERSION);
  CHECK(std::strstr(error, "coin_runs") != nullptr);
}

} // namespace

int main() {
  exact_distribution_matches_enumeration();
  text_round_trips_and_errors_are_precise();
  batch_matches_rules_and_replay();
  device_rules_play_as_the_cpu_does();
  entry_point_negotiates();
  std::printf("%s (%d failed checks)\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
