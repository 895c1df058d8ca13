// playout_checks.cpp - the checks of playouts: CPU batch and generic runs consistent with themselves and the
// game, from the initial state and mid-game; batch playouts reaching only what the per-state rules reach
// from their start; replays reproducing batch playouts; the exact score distribution fitting the playouts.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "conformance/playout_support.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::host::conformance {

namespace {

void batch_consistent(CheckContext& context, Findings& findings) {
  core::PlayoutJob job;
  job.seed = 31337;
  job.playouts = 200003;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 65537;
  const core::PlayoutOutcome out = core::run_playouts(context.game(), job);
  if (out.engine != "batch") findings.fail(fmt::format("the run used the {} engine, expected batch", out.engine));
  check_summary(context, out, job, "batch playouts from the initial state", findings);
}

void batch_mid_game(CheckContext& context, Findings& findings) {
  for (const core::StateBlob& start : mid_game_states(context, 5, findings)) {
    core::PlayoutJob job;
    job.seed = 99;
    job.playouts = 50001;
    job.cpu_threads = 2;
    job.cpu_item_playouts = 4099;
    job.start_state = start;
    check_summary(context, core::run_playouts(context.game(), job), job, "batch playouts from " + context.quote(start),
                  findings);
  }
}

void generic_consistent(CheckContext& context, Findings& findings) {
  core::PlayoutJob job;
  job.seed = 4242;
  job.playouts = 3001;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 97;
  job.force_generic = true;
  const core::PlayoutOutcome out = core::run_playouts(context.game(), job);
  if (out.engine != "generic") findings.fail(fmt::format("the run used the {} engine, expected generic", out.engine));
  check_summary(context, out, job, "generic playouts", findings);
  const core::StateBlob start = context.game().initial_state();
  for (const auto& [label, playout, score] : {std::tuple{"best", out.result.best_playout, out.result.best_score},
                                              std::tuple{"worst", out.result.worst_playout, out.result.worst_score}}) {
    const int64_t again = core::generic_playout(context.game(), job.seed, playout, start);
    if (again != score)
      findings.fail(fmt::format("generic playout {} (the {}) scored {} in the run but {} played again", playout, label,
                                score, again));
  }
}

// Every terminal score reachable from `state` through the per-state rules, or nullopt when the subtree has
// more than `budget` states.
std::optional<std::set<int64_t>> reachable_scores(const core::GameInstance& game, const core::StateBlob& state,
                                                  uint64_t budget) {
  std::set<int64_t> scores;
  std::vector<core::StateBlob> stack = {state};
  std::vector<uint32_t> moves(game.max_moves());
  for (uint64_t visited = 0; !stack.empty(); ++visited) {
    if (visited > budget) return std::nullopt;
    const core::StateBlob s = std::move(stack.back());
    stack.pop_back();
    if (game.current_player(s) == GSDK_PLAYER_TERMINAL) {
      scores.insert(game.score(s));
      continue;
    }
    const uint32_t n = game.checked_legal_moves(s, moves);
    for (uint32_t k = 0; k < n; ++k) {
      stack.push_back(s);
      game.apply_move(stack.back(), moves[k]);
    }
  }
  return scores;
}

// Playouts from a state the exact-states table marks report perfect play's outcome in the game's own
// convention (e.g. 1, 0 or -1 for a win, a draw or a loss), not a score of a random game, so the comparisons with the
// per-state rules below leave such starts out.
bool exact_start(const CheckContext& context, const core::StateBlob& state) {
  return context.game().is_exact(state.data());
}

std::string joined(const std::set<int64_t>& values) {
  std::string out;
  for (int64_t v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return "{" + out + "}";
}

// From states near the end of random games, whose subtrees are small enough to search exhaustively, every
// score of 500 batch playouts must be one the per-state rules can reach from that state.
void batch_vs_per_state(CheckContext& context, Findings& findings) {
  constexpr uint64_t kBudget = 20000;  // states of a subtree searched exhaustively
  constexpr size_t kStatesPerGame = 8; // of those that fit, spread from the last move back
  constexpr uint64_t kPlayouts = 500;
  std::mt19937_64 random(13);
  int compared = 0;
  for (int g = 0; g < 30 && !findings.failed(); ++g) {
    const RandomGame game = play_random_game(context, random, context.game().initial_state(), findings);
    if (!game.ended || game.states.size() < 2) continue;
    std::vector<std::pair<const core::StateBlob*, std::set<int64_t>>> small; // the last live state first
    for (size_t back = 2; back <= game.states.size() && back <= 40; ++back) {
      const core::StateBlob& s = game.states[game.states.size() - back];
      if (exact_start(context, s)) continue;
      auto scores = reachable_scores(context.game(), s, kBudget);
      if (!scores) break;
      small.emplace_back(&s, std::move(*scores));
    }
    for (size_t k = 0; k < std::min(small.size(), kStatesPerGame) && !findings.failed(); ++k) {
      const size_t pick = small.size() <= kStatesPerGame ? k : k * (small.size() - 1) / (kStatesPerGame - 1);
      const auto& [start, reachable] = small[pick];
      core::PlayoutJob job;
      job.seed = 7 + static_cast<uint64_t>(g);
      job.playouts = kPlayouts;
      job.cpu_threads = 1;
      job.start_state = *start;
      const core::PlayoutOutcome out = core::run_playouts(context.game(), job);
      if (!out.error.empty()) findings.stop(out.error);
      ++compared;
      const int64_t lo = context.game().score_range().first;
      for (size_t bin = 0; bin < out.result.histogram.size(); ++bin) {
        const int64_t score = lo + static_cast<int64_t>(bin);
        if (out.result.histogram[bin] == 0 || reachable.count(score)) continue;
        findings.fail(fmt::format("from {} the per-state rules reach only the scores {}, but {} of {} batch playouts "
                                  "scored {}",
                                  context.quote(*start), joined(reachable), out.result.histogram[bin], kPlayouts,
                                  score));
        break;
      }
    }
  }
  if (compared == 0 && !findings.failed())
    findings.skip(fmt::format("no state near the end of 30 random games (exact states left out) has a subtree of at "
                              "most {} states",
                              kBudget));
}

// Replays of single batch playouts, and of a run's best and worst, from the initial state and mid-game
// states: legal moves through the per-state rules, ending the game with the batch's score.
void replay(CheckContext& context, Findings& findings) {
  std::vector<std::pair<core::StateBlob, bool>> starts = {{context.game().initial_state(), true}};
  for (const core::StateBlob& s : mid_game_states(context, 17, findings))
    if (!exact_start(context, s)) starts.emplace_back(s, false);
  constexpr uint64_t kSeed = 2024;
  for (const auto& [start, initial] : starts) {
    if (findings.failed()) return;
    const void* request_start = initial ? nullptr : start.data();
    for (uint64_t playout = 0; playout < 64 && !findings.failed(); ++playout) {
      const int64_t batch = batch_playout_score(context, kSeed, playout, request_start);
      const std::optional<int64_t> replayed = replayed_score(context, kSeed, playout, start, initial, findings);
      if (replayed && *replayed != batch)
        findings.fail(fmt::format("playout {} from {}: the batch table scored {}, its replay through the per-state "
                                  "rules scores {}",
                                  playout, context.quote(start), batch, *replayed));
    }
    core::PlayoutJob job;
    job.seed = kSeed;
    job.playouts = 20000;
    job.cpu_threads = 2;
    job.cpu_item_playouts = 1009;
    if (!initial) job.start_state = start;
    const core::PlayoutOutcome out = core::run_playouts(context.game(), job);
    if (!out.error.empty()) findings.stop(out.error);
    for (const auto& [label, playout, score] :
         {std::tuple{"best", out.result.best_playout, out.result.best_score},
          std::tuple{"worst", out.result.worst_playout, out.result.worst_score}}) {
      const std::optional<int64_t> replayed = replayed_score(context, kSeed, playout, start, initial, findings);
      if (replayed && *replayed != score)
        findings.fail(fmt::format("the {} playout ({}) of a run from {} scored {}, its replay scores {}", label,
                                  playout, context.quote(start), score, *replayed));
    }
  }
}

void exact_distribution(CheckContext& context, Findings& findings) {
  const gsdk_score_distribution& table = *context.tables().score_distribution;
  const uint32_t bins = context.game().histogram_bins();
  std::vector<double> p(bins);
  if (const auto failure = core::call_entry(
          [&](char* error, uint32_t size) { return table.exact(context.handle(), p.data(), bins, error, size); }))
    findings.stop(fmt::format("exact() failed (status {}): {}", failure->status, failure->message));
  double sum = 0;
  for (uint32_t k = 0; k < bins; ++k) {
    if (!(p[k] >= 0.0)) findings.fail(fmt::format("exact(): bin {} has probability {}", k, p[k]));
    sum += p[k];
  }
  if (std::abs(sum - 1.0) > 1e-9)
    findings.fail(fmt::format("exact(): the probabilities sum to {:.12f}, expected 1", sum));
  std::vector<double> more(bins + 1);
  if (!core::call_entry([&](char* error, uint32_t size) {
        return table.exact(context.handle(), more.data(), bins + 1, error, size);
      }))
    findings.fail(
        fmt::format("exact() accepted {} bins; the game has {}: a wrong bin count must be refused", bins + 1, bins));
  core::PlayoutJob job;
  job.seed = 8;
  job.playouts = context.tables().cpu_playouts ? 1000000 : 20000;
  job.cpu_threads = 2;
  job.cpu_item_playouts = 1u << 18;
  const core::PlayoutOutcome out = core::run_playouts(context.game(), job);
  if (!out.error.empty()) findings.stop(out.error);
  const core::ChiSquare fit = core::chi_square(out.result.histogram, p);
  if (fit.p_value <= 1e-5)
    findings.fail(fmt::format("{} playouts do not fit the exact distribution: chi-square {:.1f} with {} degrees of "
                              "freedom, p = {:.3g}",
                              job.playouts, fit.statistic, fit.degrees_of_freedom, fit.p_value));
}

} // namespace

std::vector<CheckSpec> playout_checks() {
  return {
      {"playouts.batch_consistent",
       "CPU batch playouts from the initial state: counts, histogram and extremes consistent and in range",
       {GSDK_TABLE_CPU_PLAYOUTS},
       false,
       batch_consistent},
      {"playouts.batch_mid_game",
       "CPU batch playouts from mid-game states: consistent and in range",
       {GSDK_TABLE_CPU_PLAYOUTS},
       false,
       batch_mid_game},
      {"playouts.generic_consistent",
       "generic (per-state) playouts consistent; their best and worst play again to the same scores",
       {},
       false,
       generic_consistent},
      {"playouts.batch_vs_per_state",
       "from states near the end of random games, batch playouts score only what the per-state rules can reach",
       {GSDK_TABLE_CPU_PLAYOUTS},
       false,
       batch_vs_per_state},
      {"playouts.replay",
       "replays of batch playouts (from the initial and mid-game states) are legal, end, and give the batch's score",
       {GSDK_TABLE_CPU_PLAYOUTS, GSDK_TABLE_REPLAY},
       false,
       replay},
      {"playouts.exact_distribution",
       "the exact score distribution sums to 1, refuses a wrong bin count and fits 10^6 playouts (chi-square)",
       {GSDK_TABLE_SCORE_DISTRIBUTION},
       false,
       exact_distribution},
  };
}

} // namespace gsdk::host::conformance
