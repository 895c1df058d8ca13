// gtp_clock.cpp - reading GTP's time commands and the per-move time budget (the rule in gtp_clock.hpp).
#include "play/gtp_clock.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

// What a move leaves unused of its share, for the controller's and the process's latency: a fixed part
// (pipes, process wake-up) and a part of the budget (the search's last iteration, the move's bookkeeping).
constexpr double kLatencySeconds = 0.05;
constexpr double kBudgetFraction = 0.9;
// The least a move is given, so that even a nearly spent clock still yields a searched move.
constexpr double kMinimumBudget = 0.01;
constexpr double kMaxSeconds = 1e7;

// A time of day's worth of seconds, or nullopt for text that is not one (GTP sends integers; fractions are
// accepted, as many controllers send them).
std::optional<double> seconds_of(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
  try {
    size_t used = 0;
    const double value = std::stod(text, &used);
    if (used != text.size() || !(value <= kMaxSeconds)) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<int> count_of(const std::string& text) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoi(text);
}

} // namespace

void GtpClock::reset() {
  for (Side& side : sides_) side = {system_.main_time, system_.byo_yomi, 0};
  // With no main time a side starts in byo-yomi.
  if (system_.main_time <= 0)
    for (Side& side : sides_) side.stones_left = system_.byo_stones;
}

std::optional<std::string> GtpClock::time_settings(const std::string& main, const std::string& byo,
                                                   const std::string& stones) {
  const auto main_time = seconds_of(main), byo_yomi = seconds_of(byo);
  const auto byo_stones = count_of(stones);
  if (!main_time || !byo_yomi || !byo_stones)
    return fmt::format("syntax error: time_settings expects main_time byo_yomi_time byo_yomi_stones (seconds, "
                       "seconds, a count), got '{} {} {}'",
                       main, byo, stones);
  GtpTimeSystem system{*main_time, *byo_yomi, *byo_stones, *byo_yomi > 0 && *byo_stones == 0};
  if (*byo_stones == 0) system.byo_yomi = 0;
  if (!system.unlimited && *main_time <= 0 && system.byo_yomi <= 0)
    return "syntax error: time_settings 0 0 0 leaves no time to move (byo_yomi_time > 0 with 0 stones means "
           "no limit)";
  system_ = system;
  reset();
  return std::nullopt;
}

std::optional<std::string> GtpClock::kgs_time_settings(const std::vector<std::string>& args) {
  const std::string kind = args.empty() ? "" : args[0];
  const auto bad = [&](const std::string& expected) {
    std::string got;
    for (const auto& a : args) got += (got.empty() ? "" : " ") + a;
    return fmt::format("syntax error: kgs-time_settings expects {}, got '{}'", expected, got);
  };
  if (kind == "none") {
    if (args.size() != 1) return bad("none");
    system_ = {};
    reset();
    return std::nullopt;
  }
  if (kind == "absolute") {
    const std::string expected = "absolute MAIN_TIME (seconds above 0)";
    if (args.size() != 2) return bad(expected);
    const std::optional<double> main_time = seconds_of(args[1]);
    if (!main_time || *main_time <= 0) return bad(expected);
    system_ = {*main_time, 0, 0, false};
    reset();
    return std::nullopt;
  }
  if (kind == "byoyomi") {
    const std::string expected = "byoyomi MAIN_TIME BYO_YOMI_TIME PERIODS (a period above 0 s, at least one period)";
    if (args.size() != 4) return bad(expected);
    const std::optional<double> main_time = seconds_of(args[1]), period = seconds_of(args[2]);
    const std::optional<int> periods = count_of(args[3]);
    if (!main_time || !period || !periods || *period <= 0 || *periods < 1) return bad(expected);
    // Each move has a whole period; the other periods are a reserve this engine does not plan to use.
    system_ = {*main_time, *period, 1, false};
    reset();
    return std::nullopt;
  }
  if (kind == "canadian") {
    const std::string expected = "canadian MAIN_TIME BYO_YOMI_TIME STONES (STONES at least 1)";
    if (args.size() != 4 || count_of(args[3]).value_or(0) < 1) return bad(expected);
    if (time_settings(args[1], args[2], args[3])) return bad(expected);
    return std::nullopt;
  }
  return bad("none, absolute, byoyomi or canadian and their times");
}

std::optional<std::string> GtpClock::time_left(int player, const std::string& time, const std::string& stones) {
  const auto left = seconds_of(time);
  const auto stones_left = count_of(stones);
  if (!left || !stones_left)
    return fmt::format("syntax error: time_left expects a colour, seconds and a count of stones, got '{} {}'", time,
                       stones);
  Side& side = sides_[player];
  // GTP sends whole seconds, the controller's clock rounded down: the engine's own account of the same clock (the
  // same stones), when it lies within that second, is the finer one.
  const auto finer = [&](double kept) { return kept >= *left && kept < *left + 1 ? kept : *left; };
  if (*stones_left == 0) {
    side.main_left = side.stones_left == 0 ? finer(side.main_left) : *left;
    side.stones_left = 0;
  } else {
    side.period_left = side.stones_left == *stones_left ? finer(side.period_left) : *left;
    side.main_left = 0;
    side.stones_left = *stones_left;
  }
  return std::nullopt;
}

void GtpClock::charge(int player, double seconds) {
  if (system_.unlimited) return;
  Side& side = sides_[player];
  if (side.stones_left == 0) {
    side.main_left -= seconds;
    if (side.main_left > 0 || system_.byo_yomi <= 0) return;
    // Main time ran out in this move: the rest of it came out of the first period.
    seconds = -side.main_left;
    side.main_left = 0;
    side.period_left = system_.byo_yomi;
    side.stones_left = system_.byo_stones;
  }
  side.period_left -= seconds;
  if (--side.stones_left == 0) {
    side.period_left = system_.byo_yomi;
    side.stones_left = system_.byo_stones;
  }
}

std::optional<double> GtpClock::move_budget(int player, double moves_left) const {
  if (system_.unlimited) return std::nullopt;
  const Side& side = sides_[player];
  double share = 0, limit = 0;
  if (side.stones_left > 0) {
    share = side.period_left / side.stones_left;
    limit = side.period_left;
  } else {
    const double byo_share = system_.byo_yomi > 0 ? system_.byo_yomi / system_.byo_stones : 0;
    share = side.main_left / std::max(moves_left, 1.0) + byo_share;
    limit = side.main_left + byo_share;
  }
  return std::max(kMinimumBudget, std::min(share * kBudgetFraction, limit - kLatencySeconds) - kLatencySeconds);
}

} // namespace gsdk::host
