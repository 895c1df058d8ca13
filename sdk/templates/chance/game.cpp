// game.cpp - coin_runs' parameters, text I/O with precise errors, the CPU batch loop, replay and the
// exact distribution of the longest run of heads.
#include "game.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "gsdk/playout_summary.hpp"

namespace coin_runs {

namespace {

const gsdk_param_desc kParameters[] = {
    // name, type, reserved, default_int, default_real, default_string, min, max, doc
    {"flips", GSDK_PARAM_INT, 0, kDefaultFlips, 0.0, nullptr, 1, kMaxFlips, "coin flips per game"},
};

// Why (flips_done, run, longest) is not a state of a `flips`-flip game, or "" when it is one. A
// longest run that is not the current run ended with a tail before the current run began.
std::string state_problem(int flips, unsigned done, unsigned run, unsigned longest) {
  if (done > static_cast<unsigned>(flips))
    return "flips=" + std::to_string(done) + " exceeds the game's " + std::to_string(flips) + " flips";
  if (longest > done) return "longest=" + std::to_string(longest) + " exceeds flips=" + std::to_string(done);
  if (run > longest) return "run=" + std::to_string(run) + " exceeds longest=" + std::to_string(longest);
  if (longest > run && longest + run + 1 > done)
    return "a longest run of " + std::to_string(longest) + " before a current run of " + std::to_string(run) +
           " needs at least " + std::to_string(longest + run + 1) + " flips, not " + std::to_string(done);
  return "";
}

// Reads "key=<unsigned>" after optional spaces; advances `text`. False when it is not there.
bool read_field(std::string_view& text, std::string_view key, unsigned& value) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  if (text.substr(0, key.size()) != key || text.substr(key.size(), 1) != "=") return false;
  text.remove_prefix(key.size() + 1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return false;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return true;
}

} // namespace

std::span<const gsdk_param_desc> Game::parameters() {
  return kParameters;
}

Game::Game(const gsdk::Params& params) : flips_(static_cast<int>(params.get_int("flips"))) {
  // The host has range-checked `flips`; a plugin still checks what its code relies on.
  if (flips_ < 1 || flips_ > kMaxFlips)
    throw gsdk::PluginError("flips = " + std::to_string(flips_) + " is out of range [1, " + std::to_string(kMaxFlips) +
                            "]");
}

int32_t Game::current_player(const State& s) const {
  return s.flips_done >= flips_ ? GSDK_PLAYER_TERMINAL : GSDK_PLAYER_CHANCE;
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double* probabilities) const {
  if (s.flips_done >= flips_) return 0;
  moves[0] = kTails;
  moves[1] = kHeads;
  if (probabilities) probabilities[0] = probabilities[1] = 0.5;
  return 2;
}

std::string Game::state_to_string(const State& s) const {
  return "flips=" + std::to_string(s.flips_done) + " run=" + std::to_string(s.run) +
         " longest=" + std::to_string(s.longest);
}

State Game::state_from_string(std::string_view text) const {
  const std::string quoted = "coin_runs state \"" + std::string(text) + "\": ";
  unsigned done = 0, run = 0, longest = 0;
  std::string_view rest = text;
  if (!read_field(rest, "flips", done) || !read_field(rest, "run", run) || !read_field(rest, "longest", longest) ||
      rest.find_first_not_of(' ') != std::string_view::npos)
    throw gsdk::PluginError(quoted + "expected \"flips=F run=R longest=L\", e.g. \"" + state_to_string(State{5, 1, 2}) +
                            "\"");
  if (const std::string problem = state_problem(flips_, done, run, longest); !problem.empty())
    throw gsdk::PluginError(quoted + problem);
  return State{static_cast<uint16_t>(done), static_cast<uint16_t>(run), static_cast<uint16_t>(longest)};
}

State Game::checked_start(const void* start) const {
  if (!start) return State{0, 0, 0};
  const State& s = *static_cast<const State*>(start);
  if (const std::string problem = state_problem(flips_, s.flips_done, s.run, s.longest); !problem.empty())
    throw gsdk::PluginError("start state " + state_to_string(s) + " is not a coin_runs state: " + problem);
  return s;
}

// The hot loop: one playout after another on the calling thread (the host runs many such calls in
// parallel). Playout i depends only on (seed, i), so any split of the range gives the same summary.
void Game::cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
  const State start = checked_start(request.start_state);
  if (summary.histogram_bins != static_cast<uint32_t>(flips_) + 1)
    throw gsdk::PluginError("summary histogram has " + std::to_string(summary.histogram_bins) +
                            " bins, coin_runs needs " + std::to_string(flips_ + 1));
  for (uint64_t i = 0; i < request.playout_count; ++i) {
    const uint64_t playout = request.first_playout + i;
    State end = start;
    play_out(end, flips_, request.seed, playout, [](uint32_t) {});
    gsdk::record_playout(summary, end.longest, playout, 0);
  }
}

std::vector<uint32_t> Game::replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
  State end = checked_start(start);
  std::vector<uint32_t> moves;
  moves.reserve(static_cast<size_t>(flips_ - end.flips_done));
  play_out(end, flips_, seed, playout, [&moves](uint32_t flip) { moves.push_back(flip); });
  return moves;
}

// P(longest = k) for n fair flips. With F_k(m) = P(no run of heads longer than k in m flips) and
// G_k(m) = 1 - F_k(m), conditioning on the first tail gives, for m >= k + 2,
//   F_k(m) = F_k(m-1) - 2^-(k+2) F_k(m-k-2),   G_k(m) = G_k(m-1) + 2^-(k+2) (1 - G_k(m-k-2)),
// from F_k(m) = 1 for m <= k and F_k(k+1) = 1 - 2^-(k+1). Each is computed on its own so that
// P(longest = k) = F_k - F_{k-1} (lower half) or G_{k-1} - G_k (upper half) keeps full relative
// precision in both tails. O(n^2) time.
void Game::exact_score_distribution(double* probabilities, uint32_t bins) const {
  const int n = flips_;
  if (bins != static_cast<uint32_t>(n) + 1)
    throw gsdk::PluginError("coin_runs' distribution has " + std::to_string(n + 1) + " bins, not " +
                            std::to_string(bins));
  std::vector<double> below(static_cast<size_t>(n) + 1), above(static_cast<size_t>(n) + 1);
  std::vector<double> f(static_cast<size_t>(n) + 1), g(static_cast<size_t>(n) + 1);
  for (int k = 0; k <= n; ++k) {
    const double step = std::ldexp(1.0, -(k + 2));
    for (int m = 0; m <= n; ++m) {
      if (m <= k) {
        f[m] = 1;
        g[m] = 0;
      } else if (m == k + 1) {
        f[m] = 1 - 2 * step;
        g[m] = 2 * step;
      } else {
        f[m] = f[m - 1] - step * f[m - k - 2];
        g[m] = g[m - 1] + step * (1 - g[m - k - 2]);
      }
    }
    below[k] = f[n];
    above[k] = g[n];
  }
  for (int k = 0; k <= n; ++k) {
    const double below_prev = k == 0 ? 0.0 : below[k - 1], above_prev = k == 0 ? 1.0 : above[k - 1];
    probabilities[k] = below[k] <= 0.5 ? below[k] - below_prev : above_prev - above[k];
  }
}

} // namespace coin_runs
