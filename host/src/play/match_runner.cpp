// match_runner.cpp - playing the games of a match.
#include "play/match_runner.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "gsdk/core/runtime/worker_pool.hpp"
#include "gsdk/rng/philox.hpp"
#include "play/agent_game.hpp"
#include "plugin_loading/game_params.hpp"

namespace gsdk::host {

namespace {

// A game still running after this many plies is taken for a plugin that never ends its games.
constexpr uint64_t kMaxPlies = 1000000;
constexpr uint64_t kChanceStream = ~uint64_t{0};
constexpr uint64_t kOpeningStream = ~uint64_t{0} - 1;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point began) {
  return std::chrono::duration<double>(Clock::now() - began).count();
}

// A chance outcome drawn by its probability.
uint32_t chance_move(const core::GameInstance& game, const core::StateBlob& state, rng::PhiloxStream& random) {
  std::vector<uint32_t> moves(game.max_moves());
  std::vector<double> probabilities(game.max_moves());
  const uint32_t n = game.legal_moves(state, moves.data(), probabilities.data());
  if (n == 0 || n > moves.size())
    throw std::runtime_error(
        fmt::format("game '{}' returned {} chance outcomes (max {})", game.game().name, n, moves.size()));
  double u = random.uniform();
  for (uint32_t k = 0; k + 1 < n; ++k) {
    if (u < probabilities[k]) return moves[k];
    u -= probabilities[k];
  }
  return moves[n - 1];
}

// The game, or nothing when the match's stop request came before it ended (a game cut short is not counted).
std::optional<PlayedGame> play_game(const core::GameInstance& game, uint32_t round,
                                    const std::array<core::Agent*, 2>& by_player, int32_t a_player,
                                    const MatchSettings& settings) {
  PlayedGame played;
  played.round = round + 1;
  played.a_player = a_player;
  rng::PhiloxStream chance(core::derive_seed(settings.seed, kChanceStream), round);
  rng::PhiloxStream opening(core::derive_seed(settings.seed, kOpeningStream), round / 2); // shared by a pair
  std::vector<uint32_t> legal(game.max_moves());
  core::StateBlob state = game.initial_state();
  for (int32_t player = game.current_player(state); player != GSDK_PLAYER_TERMINAL;
       player = game.current_player(state)) {
    if (core::stop_requested(settings.stop)) return std::nullopt;
    if (played.moves.size() >= kMaxPlies)
      throw std::runtime_error(
          fmt::format("game {} of '{}' did not end within {} plies", round + 1, game.game().name, kMaxPlies));
    uint32_t move = 0;
    if (player == GSDK_PLAYER_CHANCE) {
      move = chance_move(game, state, chance);
    } else if (played.moves.size() < settings.opening_plies) {
      const uint32_t n = game.checked_legal_moves(state, legal);
      if (n == 0)
        throw std::runtime_error(
            fmt::format("game '{}' has no legal move in '{}'", game.game().name, game.state_to_string(state)));
      move = legal[opening.below(n)];
    } else {
      if (player != 0 && player != 1)
        throw std::runtime_error(fmt::format("game '{}' reports player {} to move", game.game().name, player));
      const auto began = Clock::now();
      move = by_player[player]->choose_move(state);
      if (core::stop_requested(settings.stop)) return std::nullopt; // the search may have been cut short
      AgentTally& tally = played.agents[player == a_player ? 0 : 1];
      tally.seconds += seconds_since(began);
      tally.moves += 1;
      tally.playouts += by_player[player]->last_move().playouts;
      tally.nodes += by_player[player]->last_move().nodes;
      const uint32_t n = game.checked_legal_moves(state, legal);
      if (std::find(legal.begin(), legal.begin() + n, move) == legal.begin() + n)
        throw std::runtime_error(
            fmt::format("agent chose move {}, which is not legal in '{}'", move, game.state_to_string(state)));
    }
    played.moves.push_back(game.move_to_string(state, move));
    for (core::Agent* agent : by_player) agent->observe_move(state, move);
    game.apply_move(state, move);
  }
  played.score = game.score(state);
  return played;
}

// An agent's settings with the match's stop request, which its searches honour.
core::AgentSettings stoppable(core::AgentSettings agent, const MatchSettings& settings) {
  agent.stop = settings.stop;
  return agent;
}

// One of the games played at once: agents A and B with their own searches and evaluators.
struct MatchSlot {
  MatchSlot(const core::GameInstance& game, const MatchSettings& settings)
      : game_a(game, settings.specs[0]),
        game_b(game, settings.specs[1]), agents{
                                             core::make_agent(game_a.game(), stoppable(settings.agents[0], settings)),
                                             core::make_agent(game_b.game(),
                                                              stoppable(settings.agents[1], settings))} {}
  AgentGame game_a, game_b;
  std::array<std::unique_ptr<core::Agent>, 2> agents;
};

// The 0-based rounds still to play, in order: of `part`'s when there is one.
std::vector<uint32_t> rounds_to_play(uint32_t games, const std::vector<PlayedGame>& finished,
                                     const core::WorkPart* part) {
  std::vector<unsigned char> done(games, 0);
  for (const PlayedGame& g : finished) {
    if (g.round == 0 || g.round > games || done[g.round - 1])
      throw std::invalid_argument(
          fmt::format("the finished games list round {} twice or beyond the match's {} games", g.round, games));
    done[g.round - 1] = 1;
  }
  const std::vector<std::pair<uint64_t, uint64_t>> playable =
      part ? part->ranges(games) : std::vector<std::pair<uint64_t, uint64_t>>{{0, games}};
  std::vector<uint32_t> rounds;
  for (const auto& [first, end] : playable)
    for (uint64_t g = first; g < end; ++g)
      if (!done[g]) rounds.push_back(static_cast<uint32_t>(g));
  return rounds;
}

} // namespace

void AgentTally::add(const AgentTally& part) {
  moves += part.moves;
  seconds += part.seconds;
  playouts += part.playouts;
  nodes += part.nodes;
}

MatchOutcome play_match(const core::GameInstance& game, const MatchSettings& settings, const GameDoneFn& on_game,
                        const std::vector<PlayedGame>& finished) {
  const std::vector<uint32_t> rounds = rounds_to_play(settings.games, finished, settings.part);
  // Every slot's agents are made before any game, so a bad spec or device fails the match at once.
  std::vector<std::unique_ptr<MatchSlot>> slots;
  const uint32_t slot_count = std::clamp(settings.parallel, 1u, std::max(static_cast<uint32_t>(rounds.size()), 1u));
  for (uint32_t k = 0; k < slot_count; ++k) slots.push_back(std::make_unique<MatchSlot>(game, settings));
  MatchOutcome outcome;
  for (int i = 0; i < 2; ++i) outcome.agents[i].description = slots[0]->agents[i]->describe();
  for (const PlayedGame& g : finished) {
    for (int i = 0; i < 2; ++i) outcome.agents[i].add(g.agents[i]);
    outcome.games.push_back(g);
  }
  std::mutex done_mutex; // guards outcome, next_round and the on_game calls
  size_t next_round = 0;
  const auto began = Clock::now();
  core::run_workers(slot_count, [&](unsigned k) {
    MatchSlot& slot = *slots[k];
    for (;;) {
      uint32_t g = 0;
      {
        std::lock_guard lock(done_mutex);
        if (next_round >= rounds.size() || !outcome.error.empty()) return;
        if (core::stop_requested(settings.stop)) {
          outcome.stopped = true;
          return;
        }
        g = rounds[next_round++];
      }
      std::optional<PlayedGame> played;
      std::string error;
      try {
        const int32_t a_player = static_cast<int32_t>(g % 2);
        slot.agents[0]->new_game(core::derive_seed(settings.seed, 2 * uint64_t{g}));
        slot.agents[1]->new_game(core::derive_seed(settings.seed, 2 * uint64_t{g} + 1));
        const std::array<core::Agent*, 2> by_player = a_player == 0
                                                          ? std::array{slot.agents[0].get(), slot.agents[1].get()}
                                                          : std::array{slot.agents[1].get(), slot.agents[0].get()};
        played = play_game(game, g, by_player, a_player, settings);
      } catch (const std::exception& e) {
        error = e.what();
      }
      std::lock_guard lock(done_mutex);
      if (!error.empty()) {
        if (outcome.error.empty()) outcome.error = error;
        return;
      }
      if (!played) {
        outcome.stopped = true;
        return;
      }
      for (int i = 0; i < 2; ++i) outcome.agents[i].add(played->agents[i]);
      outcome.games.push_back(std::move(*played));
      outcome.wall_seconds = seconds_since(began);
      if (on_game) on_game(outcome, outcome.games.back());
    }
  });
  // Games finish out of order when several are played at once; reports and records list them by round.
  std::sort(outcome.games.begin(), outcome.games.end(),
            [](const PlayedGame& a, const PlayedGame& b) { return a.round < b.round; });
  outcome.wall_seconds = seconds_since(began);
  return outcome;
}

} // namespace gsdk::host
