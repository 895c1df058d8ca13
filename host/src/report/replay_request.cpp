// replay_request.cpp - the fields of a results file that a replay needs, read with nlohmann-json's checked access.
#include "report/replay_request.hpp"

namespace gsdk::host {

namespace {

// Parameters keep their JSON types; the plugin's declarations check them later, as for a config's [params].
toml::table params_from_json(const nlohmann::json::object_t& params) {
  toml::table t;
  for (const auto& [key, value] : params) {
    if (value.is_boolean())
      t.insert(key, value.get<bool>());
    else if (value.is_number_integer())
      t.insert(key, value.get<int64_t>());
    else if (value.is_number())
      t.insert(key, value.get<double>());
    else if (value.is_string())
      t.insert(key, value.get<std::string>());
  }
  return t;
}

} // namespace

ReplayRequest read_replay_request(const nlohmann::json& results) {
  ReplayRequest r;
  const nlohmann::json& game = results.at("game");
  r.game = game.at("name").get<std::string>();
  if (game.contains("params")) r.params = params_from_json(game.at("params").get<nlohmann::json::object_t>());
  r.seed = results.at("seed").get<uint64_t>();
  r.engine = results.at("engine").get<std::string>();
  const nlohmann::json& best = results.at("result").at("best");
  r.best_playout = best.at("playout").get<uint64_t>();
  r.best_score = best.at("score").get<int64_t>();
  if (results.contains("start_state") && results["start_state"].is_string())
    r.start_state = results["start_state"].get<std::string>();
  return r;
}

} // namespace gsdk::host
