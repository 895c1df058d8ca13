// match_report.cpp - match results as JSON, as a printed report and as a PGN-like record.
#include "match_report.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gsdk/core/digest.hpp"

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
  return {{"spec", spec}, {"description", t.description}, {"moves", t.moves},
          {"seconds_per_move", t.seconds / moves}, {"playouts_per_move", static_cast<double>(t.playouts) / moves},
          {"nodes_per_move", static_cast<double>(t.nodes) / moves}};
}

} // namespace

std::string result_text(int64_t score) { return score > 0 ? "1-0" : score < 0 ? "0-1" : "1/2-1/2"; }

Interval wilson_interval(double points, uint64_t games, double z) {
  if (games == 0) return {};
  const double n = static_cast<double>(games), p = points / n, z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

nlohmann::json match_json(const MatchOutcome& outcome, const MatchSettings& settings) {
  Tally total, sides[2];
  uint64_t plies = 0;
  std::string canonical;
  nlohmann::json games = nlohmann::json::array();
  for (const PlayedGame& g : outcome.games) {
    const int64_t a_score = g.a_player == 0 ? g.score : -g.score;
    total.add(a_score);
    sides[g.a_player].add(a_score);
    plies += g.moves.size();
    canonical += fmt::format("{} {} {} {}\n", g.round, g.a_player, g.score, fmt::join(g.moves, " "));
    games.push_back({{"round", g.round}, {"a_player", g.a_player}, {"score", g.score}, {"result", result_text(g.score)},
                     {"plies", g.moves.size()}});
  }
  const uint64_t played = outcome.games.size();
  const double points = static_cast<double>(total.wins) + 0.5 * static_cast<double>(total.draws);
  const Interval ci = wilson_interval(points, played);
  nlohmann::json a = total.json();
  a.update({{"score_rate", played ? points / static_cast<double>(played) : 0.0},
            {"ci95", {{"low", ci.low}, {"high", ci.high}, {"method", "wilson"}}},
            {"as_player0", sides[0].json()},
            {"as_player1", sides[1].json()}});
  return {{"seed", settings.seed},
          {"games", settings.games},
          {"opening_plies", settings.opening_plies},
          {"agents", {{"a", agent_json(outcome.agents[0], settings.specs[0])}, {"b", agent_json(outcome.agents[1], settings.specs[1])}}},
          {"result", {{"games_played", played}, {"a", a}, {"average_plies", played ? static_cast<double>(plies) / static_cast<double>(played) : 0.0},
                      {"games", games}}},
          {"timings", {{"wall_seconds", outcome.wall_seconds}}},
          {"digest", core::sha1_digest(canonical)}};
}

std::string match_record(const MatchOutcome& outcome, const MatchSettings& settings, const std::string& game_name) {
  std::string text;
  for (const PlayedGame& g : outcome.games) {
    const std::string& player0 = settings.specs[g.a_player == 0 ? 0 : 1];
    const std::string& player1 = settings.specs[g.a_player == 0 ? 1 : 0];
    text += fmt::format("[Event \"gsdk match\"]\n[Game \"{}\"]\n[Round \"{}\"]\n[Player0 \"{}\"]\n[Player1 \"{}\"]\n"
                        "[Seed \"{}\"]\n[Result \"{}\"]\n[Score \"{}\"]\n[Plies \"{}\"]\n\n",
                        game_name, g.round, player0, player1, settings.seed, result_text(g.score), g.score, g.moves.size());
    if (settings.opening_plies > 0)
      text.insert(text.size() - 1, fmt::format("[OpeningPlies \"{}\"]\n", settings.opening_plies)); // before the blank line
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
    text += line.empty() ? result + "\n\n" : line + (line.size() + 1 + result.size() > 79 ? "\n" : " ") + result + "\n\n";
  }
  return text;
}

void write_match_record(const std::string& path, const std::string& record) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(p);
  out << record;
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the game record", path));
}

void print_match_report(const nlohmann::json& match, const std::string& game_name) {
  const auto& r = match["result"];
  const auto& a = r["a"];
  const auto& agents = match["agents"];
  const auto opening = match["opening_plies"].get<uint32_t>();
  std::printf("match of %s: %llu games (seed %llu)%s\n", game_name.c_str(),
              static_cast<unsigned long long>(r["games_played"].get<uint64_t>()),
              static_cast<unsigned long long>(match["seed"].get<uint64_t>()),
              opening ? fmt::format(", each pair opened by {} random plies", opening).c_str() : "");
  std::printf("  A: %s\n     %s\n", agents["a"]["spec"].get<std::string>().c_str(), agents["a"]["description"].get<std::string>().c_str());
  std::printf("  B: %s\n     %s\n", agents["b"]["spec"].get<std::string>().c_str(), agents["b"]["description"].get<std::string>().c_str());
  const auto wdl = [](const nlohmann::json& t) {
    return fmt::format("{} wins, {} draws, {} losses", t["wins"].get<uint64_t>(), t["draws"].get<uint64_t>(),
                       t["losses"].get<uint64_t>());
  };
  std::printf("  A: %s (as player 0: %s; as player 1: %s)\n", wdl(a).c_str(), wdl(a["as_player0"]).c_str(),
              wdl(a["as_player1"]).c_str());
  std::printf("  A's score rate %.4f (win 1, draw 1/2), 95%% Wilson interval [%.4f, %.4f]\n", a["score_rate"].get<double>(),
              a["ci95"]["low"].get<double>(), a["ci95"]["high"].get<double>());
  std::printf("  average game length %.2f plies\n", r["average_plies"].get<double>());
  for (const char* side : {"a", "b"})
    std::printf("  %s: %.6f s per move, %.1f playouts per move, %.0f tree nodes after a move, over %llu moves\n",
                side[0] == 'a' ? "A" : "B", agents[side]["seconds_per_move"].get<double>(),
                agents[side]["playouts_per_move"].get<double>(), agents[side]["nodes_per_move"].get<double>(),
                static_cast<unsigned long long>(agents[side]["moves"].get<uint64_t>()));
  std::printf("  time %.3f s wall\n  digest %s\n", match["timings"]["wall_seconds"].get<double>(),
              match["digest"].get<std::string>().c_str());
}

} // namespace gsdk::host
