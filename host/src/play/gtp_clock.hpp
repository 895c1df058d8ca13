// gtp_clock.hpp - a GTP engine's game clock (time_settings, kgs-time_settings, time_left) and the rule that
// turns it into a time budget for one move.
//
// The rule: in main time, what is left over the moves the engine still expects to play (plus one byo-yomi
// stone's share when byo-yomi follows); in byo-yomi, the period over its stones. Always a safety margin
// below what is left, for the process's and the controller's latency, so a move is never answered late.
// time_left's whole seconds (GTP) round the controller's clock down: the engine's own account, when it lies within
// that second, is kept.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gsdk::host {

struct GtpTimeSystem {
  double main_time = 0;  // seconds
  double byo_yomi = 0;   // seconds of a byo-yomi period; 0: none
  int byo_stones = 0;    // moves a period must cover (Canadian); 1 for Japanese byo-yomi
  bool unlimited = true; // no clock: the agent keeps its own budget
};

class GtpClock {
public:
  // `time_settings main byo stones` (GTP 2): byo > 0 with stones 0 means no time limit. Returns an error
  // text for values that are not times.
  std::optional<std::string> time_settings(const std::string& main, const std::string& byo, const std::string& stones);
  // `kgs-time_settings none | absolute M | byoyomi M P N | canadian M B S`.
  std::optional<std::string> kgs_time_settings(const std::vector<std::string>& args);
  // `time_left colour time stones`: the controller's word on one side's clock (player 0 or 1).
  std::optional<std::string> time_left(int player, const std::string& time, const std::string& stones);
  // Charges `seconds` of thinking to `player`'s clock, for a controller that sends no time_left.
  void charge(int player, double seconds);
  // Whether move_budget for `player` depends on its moves_left (in main time): the estimate is not free.
  bool counts_moves(int player) const { return !system_.unlimited && sides_[player].stones_left == 0; }
  // Seconds for `player`'s next move when it expects to play `moves_left` more moves; nullopt without a clock.
  std::optional<double> move_budget(int player, double moves_left) const;

private:
  struct Side {
    double main_left = 0;
    double period_left = 0; // in byo-yomi: seconds of the current period
    int stones_left = 0;    // in byo-yomi: moves the current period must still cover; 0 while in main time
  };
  void reset();

  GtpTimeSystem system_;
  Side sides_[2];
};

} // namespace gsdk::host
