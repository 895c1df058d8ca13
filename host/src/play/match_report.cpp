// match_report.cpp - match results as JSON, as a printed report and as a PGN-like record.
#include "play/match_report.hpp"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gsdk/core/runtime/digest.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

namespace {

// Agent A's side of one game: wins, draws, losses.
struct Tally {
  uint64_t wins = 0, draws = 0, losses = 0;
  void add(int64_t a_score) { (a_score > 0 ? wins : a_score == 0 ? draws : losses) += 1; }
  nlohmann::json json() const { return {{"wins", wins}, {"draws", draws}, {"losses", losses}}; }
};

nlohmann::json agent_json(const AgentTally& t, const std::string& spec) {
  const double moves = static_cast<double>(std::max<uint64_t>(t.moves, 1));
  return {{"spec", spec},
          {"description", t.description},
          {"moves", t.moves},
          {"seconds_per_move", t.seconds / moves},
          {"playouts_per_move", static_cast<double>(t.playouts) / moves},
          {"nodes_per_move", static_cast<double>(t.nodes) / moves}};
}

} // namespace

std::string result_text(int64_t score) {
  return score > 0 ? "1-0" : score < 0 ? "0-1" : "1/2-1/2";
}

Interval wilson_interval(double points, uint64_t games, double z) {
  if (games == 0) return {};
  const double n = static_cast<double>(games), p = points / n, z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

namespace {

// What the report and the results file say of a match, computed once from its games.
struct MatchSummary {
  Tally total, sides[2];
  uint64_t played = 0, plies = 0;
  double points = 0;
  Interval ci;
  std::string digest;
};

MatchSummary summarize(const MatchOutcome& outcome) {
  MatchSummary m;
  std::string canonical;
  for (const PlayedGame& g : outcome.games) {
    const int64_t a_score = g.a_player == 0 ? g.score : -g.score;
    m.total.add(a_score);
    m.sides[g.a_player].add(a_score);
    m.plies += g.moves.size();
    canonical += fmt::format("{} {} {} {}\n", g.round, g.a_player, g.score, fmt::join(g.moves, " "));
  }
  m.played = outcome.games.size();
  m.points = static_cast<double>(m.total.wins) + 0.5 * static_cast<double>(m.total.draws);
  m.ci = wilson_interval(m.points, m.played);
  m.digest = core::sha1_digest(canonical);
  return m;
}

double per_game(double value, uint64_t games) {
  return games ? value / static_cast<double>(games) : 0.0;
}

} // namespace

std::string match_digest(const MatchOutcome& outcome) {
  return summarize(outcome).digest;
}

nlohmann::json match_json(const MatchOutcome& outcome, const MatchSettings& settings) {
  const MatchSummary m = summarize(outcome);
  nlohmann::json games = nlohmann::json::array();
  for (const PlayedGame& g : outcome.games)
    games.push_back({{"round", g.round},
                     {"a_player", g.a_player},
                     {"score", g.score},
                     {"result", result_text(g.score)},
                     {"plies", g.moves.size()}});
  nlohmann::json a = m.total.json();
  a.update({{"score_rate", per_game(m.points, m.played)},
            {"ci95", {{"low", m.ci.low}, {"high", m.ci.high}, {"method", "wilson"}}},
            {"as_player0", m.sides[0].json()},
            {"as_player1", m.sides[1].json()}});
  return {{"seed", settings.seed},
          {"games", settings.games},
          {"opening_plies", settings.opening_plies},
          {"agents",
           {{"a", agent_json(outcome.agents[0], settings.specs[0])},
            {"b", agent_json(outcome.agents[1], settings.specs[1])}}},
          {"result",
           {{"games_played", m.played},
            {"a", a},
            {"average_plies", per_game(static_cast<double>(m.plies), m.played)},
            {"games", games}}},
          {"timings", {{"wall_seconds", outcome.wall_seconds}}},
          {"digest", m.digest}};
}

std::string match_record(const MatchOutcome& outcome, const MatchSettings& settings, const std::string& game_name) {
  std::string text;
  for (const PlayedGame& g : outcome.games) {
    const std::string& player0 = settings.specs[g.a_player == 0 ? 0 : 1];
    const std::string& player1 = settings.specs[g.a_player == 0 ? 1 : 0];
    text +=
        fmt::format("[Event \"gsdk match\"]\n[Game \"{}\"]\n[Round \"{}\"]\n[Player0 \"{}\"]\n[Player1 \"{}\"]\n"
                    "[Seed \"{}\"]\n[Result \"{}\"]\n[Score \"{}\"]\n[Plies \"{}\"]\n\n",
                    game_name, g.round, player0, player1, settings.seed, result_text(g.score), g.score, g.moves.size());
    if (settings.opening_plies > 0)
      text.insert(text.size() - 1,
                  fmt::format("[OpeningPlies \"{}\"]\n", settings.opening_plies)); // before the blank line
    // Moves numbered by pairs of plies, lines kept under 80 columns as PGN readers expect.
    std::string line;
    for (size_t i = 0; i < g.moves.size(); ++i) {
      const std::string word = (i % 2 == 0 ? fmt::format("{}. ", i / 2 + 1) : std::string()) + g.moves[i];
      if (!line.empty() && line.size() + 1 + word.size() > 79) {
        text += line + '\n';
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    const std::string result = result_text(g.score);
    text +=
        line.empty() ? result + "\n\n" : line + (line.size() + 1 + result.size() > 79 ? "\n" : " ") + result + "\n\n";
  }
  return text;
}

void write_match_record(const std::string& path, const std::string& record) {
  write_file(path, record);
}

void print_match_report(const MatchOutcome& outcome, const MatchSettings& settings, const std::string& game_name) {
  const MatchSummary m = summarize(outcome);
  std::printf("match of %s: %llu games (seed %llu)%s\n", game_name.c_str(), static_cast<unsigned long long>(m.played),
              static_cast<unsigned long long>(settings.seed),
              settings.opening_plies
                  ? fmt::format(", each pair opened by {} random plies", settings.opening_plies).c_str()
                  : "");
  std::printf("  A: %s\n     %s\n", settings.specs[0].c_str(), outcome.agents[0].description.c_str());
  std::printf("  B: %s\n     %s\n", settings.specs[1].c_str(), outcome.agents[1].description.c_str());
  const auto wdl = [](const Tally& t) {
    return fmt::format("{} wins, {} draws, {} losses", t.wins, t.draws, t.losses);
  };
  std::printf("  A: %s (as player 0: %s; as player 1: %s)\n", wdl(m.total).c_str(), wdl(m.sides[0]).c_str(),
              wdl(m.sides[1]).c_str());
  std::printf("  A's score rate %.4f (win 1, draw 1/2), 95%% Wilson interval [%.4f, %.4f]\n",
              per_game(m.points, m.played), m.ci.low, m.ci.high);
  std::printf("  average game length %.2f plies\n", per_game(static_cast<double>(m.plies), m.played));
  for (int side = 0; side < 2; ++side) {
    const AgentTally& t = outcome.agents[side];
    const double moves = static_cast<double>(std::max<uint64_t>(t.moves, 1));
    std::printf("  %s: %.6f s per move, %.1f playouts per move, %.0f tree nodes after a move, over %llu moves\n",
                side == 0 ? "A" : "B", t.seconds / moves, static_cast<double>(t.playouts) / moves,
                static_cast<double>(t.nodes) / moves, static_cast<unsigned long long>(t.moves));
  }
  std::printf("  time %.3f s wall\n  digest %s\n", outcome.wall_seconds, m.digest.c_str());
}

} // namespace gsdk::host
