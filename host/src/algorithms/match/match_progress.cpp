// match_progress.cpp - a match's checkpoint progress as JSON and back (match_progress.hpp).
#include "algorithms/match/match_progress.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "checkpoint/checkpoint_file.hpp"

namespace gsdk::host {

namespace {

nlohmann::json tally_json(const AgentTally& t) {
  return {{"moves", t.moves}, {"seconds", t.seconds}, {"playouts", t.playouts}, {"nodes", t.nodes}};
}

AgentTally tally_from_json(const nlohmann::json& j) {
  AgentTally t;
  t.moves = j.at("moves").get<uint64_t>();
  t.seconds = j.at("seconds").get<double>();
  t.playouts = j.at("playouts").get<uint64_t>();
  t.nodes = j.at("nodes").get<uint64_t>();
  return t;
}

PlayedGame game_from_json(const nlohmann::json& j, uint32_t games) {
  PlayedGame g;
  g.round = j.at("round").get<uint32_t>();
  if (g.round == 0 || g.round > games)
    throw std::invalid_argument(fmt::format("round {} is not one of the match's {} games", g.round, games));
  g.a_player = j.at("a_player").get<int32_t>();
  // Agent A is player 0 in odd rounds (match_runner.hpp): anything else is not this match's game.
  if (g.a_player != static_cast<int32_t>((g.round - 1) % 2))
    throw std::invalid_argument(fmt::format("round {} has agent A as player {}", g.round, g.a_player));
  g.score = j.at("score").get<int64_t>();
  g.moves = j.at("moves").get<std::vector<std::string>>();
  const nlohmann::json& agents = j.at("agents");
  if (!agents.is_array() || agents.size() != 2)
    throw std::invalid_argument(fmt::format("round {} does not have two agents' tallies", g.round));
  for (size_t i = 0; i < 2; ++i) g.agents[i] = tally_from_json(agents[i]);
  return g;
}

} // namespace

nlohmann::json match_progress_json(const std::vector<PlayedGame>& finished) {
  std::vector<const PlayedGame*> by_round;
  for (const PlayedGame& g : finished) by_round.push_back(&g);
  std::sort(by_round.begin(), by_round.end(), [](const auto* a, const auto* b) { return a->round < b->round; });
  nlohmann::json games = nlohmann::json::array();
  for (const PlayedGame* g : by_round)
    games.push_back({{"round", g->round},
                     {"a_player", g->a_player},
                     {"score", g->score},
                     {"moves", g->moves},
                     {"agents", {tally_json(g->agents[0]), tally_json(g->agents[1])}}});
  return {{"games", games}};
}

std::vector<PlayedGame> match_progress_from_json(const nlohmann::json& progress, const std::string& file,
                                                 uint32_t games) {
  try {
    std::vector<PlayedGame> finished;
    std::vector<unsigned char> seen(games, 0);
    for (const nlohmann::json& entry : progress.at("games")) {
      finished.push_back(game_from_json(entry, games));
      unsigned char& listed = seen[finished.back().round - 1];
      if (listed) throw std::invalid_argument(fmt::format("round {} is listed twice", finished.back().round));
      listed = 1;
    }
    return finished;
  } catch (const std::exception& e) {
    throw CheckpointMismatch(fmt::format("{}: the checkpoint's progress is malformed: {}", file, e.what()));
  }
}

nlohmann::json merge_match_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  nlohmann::json games = nlohmann::json::array();
  std::set<uint32_t> rounds;
  try {
    for (const nlohmann::json* progress : {&a, &b})
      for (const nlohmann::json& game : progress->at("games")) {
        const uint32_t round = game.at("round").get<uint32_t>();
        if (!rounds.insert(round).second)
          throw CheckpointMismatch(fmt::format("{}: two parts both played round {}", where, round));
        games.push_back(game);
      }
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointMismatch(fmt::format("{}: the part's progress is malformed: {}", where, e.what()));
  }
  std::sort(games.begin(), games.end(),
            [](const nlohmann::json& x, const nlohmann::json& y) { return x["round"] < y["round"]; });
  return {{"games", games}};
}

} // namespace gsdk::host
