// match_report.hpp - a played match as a results document, a printed report and a PGN-like record.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "play/match_runner.hpp"

namespace gsdk::host {

// Wilson's score interval for a proportion: the score rate (win 1, draw 1/2) over `games` games.
// Counting a draw as half a success is the usual approximation for rates with draws.
struct Interval {
  double low = 0;
  double high = 1;
};
Interval wilson_interval(double points, uint64_t games, double z = 1.959964);

// {seed, games, agents, result, timings, digest}: A's wins, draws and losses overall and per side,
// the score rate with its 95% Wilson interval, the average game length, time and playouts per move;
// the digest covers every game's moves and score.
nlohmann::json match_json(const MatchOutcome& outcome, const MatchSettings& settings);

// The games as PGN-like text: tag pairs ([Game], [Round], [Player0], [Player1], [Seed], [Result],
// [Score], [Plies]), then the moves numbered by pairs of plies, then the result.
std::string match_record(const MatchOutcome& outcome, const MatchSettings& settings, const std::string& game_name);

// Writes the record atomically, creating parent folders. Throws OutputError naming the path.
void write_match_record(const std::string& path, const std::string& record);

// The digest of the games: every game's round, sides, score and moves.
std::string match_digest(const MatchOutcome& outcome);

// The report on the terminal: A's wins, draws and losses overall and per side, the score rate and its
// interval, the average game length, and each agent's time, playouts and tree size per move.
void print_match_report(const MatchOutcome& outcome, const MatchSettings& settings, const std::string& game_name);

// "1-0" (player 0 won), "0-1" or "1/2-1/2" for a score of player 0.
std::string result_text(int64_t score);

} // namespace gsdk::host
