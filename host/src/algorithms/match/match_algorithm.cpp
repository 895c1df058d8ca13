// match_algorithm.cpp - the match driver: [match], the games (several at once when asked), the report,
// the PGN-like record and the results fields. With a checkpoint, the finished games are saved (when one finishes
// checkpoint_seconds after the last save, and at the end) and a resumed run plays only the others.
#include "algorithms/match/match_algorithm.hpp"

#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/match/match_progress.hpp"
#include "algorithms/typed_driver.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "config/experiment_config.hpp"
#include "devices/device_selection.hpp"
#include "play/agent_spec.hpp"
#include "play/match_report.hpp"
#include "play/match_runner.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"

namespace gsdk::host {

namespace {

const IntegerKey kGames{"games", 0, 1, kMaxMatchGames, "games to play; agent A is player 0 in even games", true};
const OtherKey kAgents{"agents", "array of two strings", "required",
                       "the agent specs of A and B, e.g. [\"uct:playouts=10000,device=cuda\", \"random\"]"};
const StringKey kRecord{"record", "", {}, "where to write the games as a PGN-like record (default: none)"};
const IntegerKey kOpeningPlies{
    "opening_plies", 0, 0, kMaxOpeningPlies,
    "random plies that open each pair of games (A with either colour from the same position)"};
const IntegerKey kParallel{"parallel", 1, 1, kMaxParallelGames, "games played at once"};
const BooleanKey kGameLines{"game_lines", false,
                            "a line per finished game on stdout (its result and the score so far), in place of the "
                            "progress bar"};

// "game 3/10: A is player 0, 1-0 (A wins), 9 plies; A so far +2 =0 -1".
void print_game_line(const MatchOutcome& so_far, const PlayedGame& g, uint32_t games) {
  uint64_t wins = 0, draws = 0, losses = 0;
  for (const PlayedGame& p : so_far.games) {
    const int64_t a_score = p.a_player == 0 ? p.score : -p.score;
    (a_score > 0 ? wins : a_score == 0 ? draws : losses) += 1;
  }
  const int64_t a_score = g.a_player == 0 ? g.score : -g.score;
  std::printf("game %u/%u: A is player %d, %s (%s), %zu plies; A so far +%llu =%llu -%llu\n", g.round, games,
              g.a_player, result_text(g.score).c_str(),
              a_score > 0   ? "A wins"
              : a_score < 0 ? "B wins"
                            : "draw",
              g.moves.size(), static_cast<unsigned long long>(wins), static_cast<unsigned long long>(draws),
              static_cast<unsigned long long>(losses));
  std::fflush(stdout);
}

class MatchRunOutcome : public AlgorithmOutcome {
public:
  MatchOutcome played;
  MatchSettings settings;
  std::string game, record;

  std::string digest() const override { return match_digest(played); }
  nlohmann::json completed() const override { return {{"games", played.games.size()}, {"of", settings.games}}; }

  nlohmann::json results() const override {
    nlohmann::json fields = match_json(played, settings);
    if (!record.empty()) fields["record"] = record;
    return fields;
  }

  void print(const std::string& results_path) const override {
    print_match_report(played, settings, game);
    if (!record.empty()) std::printf("  record %s\n", record.c_str());
    if (!results_path.empty())
      std::printf("  results %s\n", output_name(results_path).c_str()); // `gsdk match` without --json
  }
};

class Match : public DriverOf<MatchConfig> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info{
        "match",
        "two agents (random, flat Monte Carlo, UCT; see the agent specs) play games of a two-player game, colours "
        "alternating",
        {describe(kGames), describe(kAgents), describe(kRecord), describe(kOpeningPlies), describe(kParallel)},
        {describe(kGameLines)},
        "each agent spec names its device (e.g. \"uct:playouts=10000,device=cuda\")",
        "a match draws no picture; its results file holds the score and the per-agent statistics",
        "a match writes no events; [match] record keeps its games as a PGN-like record"};
    return info;
  }

  std::shared_ptr<const MatchConfig> read_settings(const ConfigSection& m, const ConfigSection* output) const override {
    auto config = std::make_shared<MatchConfig>();
    MatchSettings& match = config->match;
    match.games = static_cast<uint32_t>(m.get(kGames));
    m.require(kAgents.name);
    const toml::node* agents = m.node(kAgents.name);
    config->agents_where = agents->source();
    if (!agents->is_array() || agents->as_array()->size() != 2)
      throw located_error(*agents, "'agents' in [match] must be an array of two agent specs, e.g. "
                                   "[\"uct:playouts=10000\", \"random\"] (A, then B)");
    for (size_t i = 0; i < 2; ++i) {
      const toml::node& spec = *agents->as_array()->get(i);
      if (!spec.is_string())
        throw located_error(
            spec, fmt::format("'agents' in [match] must hold strings (agent specs), got {}", toml_type_name(spec)));
      match.specs[i] = spec.as_string()->get();
      try {
        match.agents[i] = parse_agent_spec(match.specs[i]);
      } catch (const AgentSpecError& e) {
        throw located_error(spec, e.what());
      }
    }
    match.record_file = m.get(kRecord);
    match.opening_plies = static_cast<uint32_t>(m.get(kOpeningPlies));
    match.parallel = static_cast<uint32_t>(m.get(kParallel));
    config->game_lines = output && output->get(kGameLines);
    return config;
  }

  RunFiles files_for(const ExperimentConfig&, const MatchConfig& config) const override {
    const std::string& record = config.match.record_file;
    return {{}, record.empty() ? std::vector<std::string>{} : std::vector<std::string>{record}};
  }

  // The agents choose their own devices: [run] does not apply.
  DeviceNeeds device_needs_for(const MatchConfig&, const core::PluginTables&) const override { return {}; }

  bool has_checkpoints() const override { return true; }
  // The work items are the games (each a function of its round: match_runner.hpp).
  bool has_parts() const override { return true; }
  ChunkFloor smallest_chunk_for(const MatchConfig& config) const override { return {1, config.match.games}; }
  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    return merge_match_progress(a, b, where);
  }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const MatchConfig& config) const override {
    auto outcome = std::make_unique<MatchRunOutcome>();
    outcome->settings = config.match;
    outcome->settings.seed = context.seed;
    outcome->settings.stop = context.stop;
    outcome->settings.part = context.part;
    outcome->game = context.config.game;
    const MatchSettings& settings = outcome->settings;
    try {
      for (int i = 0; i < 2; ++i) require_agent_device(settings.agents[i], settings.specs[i]);
    } catch (const ConfigError& e) {
      throw ConfigError(located(config.agents_where, e.what()));
    }
    std::vector<PlayedGame> finished;
    if (context.checkpoint && !context.checkpoint->resumed().is_null())
      finished = match_progress_from_json(context.checkpoint->resumed(), context.checkpoint->path(), settings.games);
    const bool game_lines = config.game_lines;
    ProgressSettings progress = context.progress;
    progress.shown = progress.shown && !game_lines;
    ProgressBar bar(context.config.name, "games", progress);
    // play_match calls on_game under its lock: one at a time.
    auto last_save = std::chrono::steady_clock::now();
    bool saves_failed = false;
    const auto on_game = [&](const MatchOutcome& so_far, const PlayedGame& game) {
      bar.update(so_far.games.size(), settings.games);
      if (game_lines) print_game_line(so_far, game, settings.games);
      if (!context.checkpoint || saves_failed) return;
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last_save).count() < context.checkpoint_seconds) return;
      last_save = now;
      try {
        context.checkpoint->save(match_progress_json(so_far.games), false);
      } catch (const std::exception& e) {
        // The games go on without further saves until the end's, and the run fails.
        outcome->add_failure(std::string("checkpoint: ") + e.what());
        saves_failed = true;
      }
    };
    try {
      outcome->played = play_match(context.game, settings, on_game, finished);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(located(config.agents_where, e.what()));
    }
    bar.finish();
    outcome->error = outcome->played.error;
    outcome->stopped = outcome->played.stopped;
    if (context.checkpoint) save_checkpoint(*context.checkpoint, *outcome);
    // A part's record would hold a share of the games: the run that merges the parts writes the record.
    if (!settings.record_file.empty() && !context.part) {
      try {
        write_match_record(settings.record_file, match_record(outcome->played, settings, context.config.game));
        outcome->record = settings.record_file;
      } catch (const OutputError& e) {
        outcome->add_failure(e.what()); // the results file is written all the same
      }
    }
    return outcome;
  }

private:
  // The finished games, marked complete when every game is. A checkpoint that cannot be saved fails the run,
  // whose results are still written.
  static void save_checkpoint(CheckpointFile& checkpoint, MatchRunOutcome& outcome) {
    try {
      checkpoint.save(match_progress_json(outcome.played.games), outcome.status() == "complete");
    } catch (const std::exception& e) {
      outcome.add_failure(std::string("checkpoint: ") + e.what());
    }
  }
};

} // namespace

const Algorithm& match_algorithm() {
  static const Match algorithm;
  return algorithm;
}

} // namespace gsdk::host
