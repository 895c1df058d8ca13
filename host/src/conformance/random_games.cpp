// random_games.cpp - the invariants of a state, and random games that check them at every step.
#include "conformance/random_games.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace gsdk::host::conformance {

namespace {

constexpr uint32_t kMoveSentinel = 0xdeadbeefu;
constexpr double kProbabilitySentinel = -7.0;
constexpr size_t kSlack = 16; // buffer entries past max_moves, to see a plugin write there
constexpr uint64_t kLongestGame = 1000000;

} // namespace

std::optional<InspectedState> inspect_state(const CheckContext& context, const GuardedState& state,
                                            Findings& findings) {
  const gsdk_game& g = context.table();
  const gsdk_game_instance* handle = context.handle();
  const uint32_t max_moves = context.game().max_moves();
  const auto [score_min, score_max] = context.game().score_range();
  const core::StateBlob before = state.blob();
  const auto where = [&] { return context.quote(before); };

  InspectedState out;
  out.player = g.current_player(handle, state.data());
  if (const int32_t again = g.current_player(handle, state.data()); again != out.player)
    findings.fail(fmt::format("current_player is not a pure function: {} then {} for {}", out.player, again, where()));
  if (out.player == GSDK_PLAYER_TERMINAL) {
    out.score = g.score(handle, state.data());
    if (out.score < score_min || out.score > score_max)
      findings.fail(fmt::format("score {} outside score_range [{}, {}] for terminal state {}", out.score, score_min,
                                score_max, where()));
    if (state.blob() != before) findings.fail(fmt::format("score changed the state {}", where()));
    return out;
  }
  const bool chance = out.player == GSDK_PLAYER_CHANCE;
  if (chance && !(g.flags & GSDK_GAME_FLAG_CHANCE))
    findings.fail(fmt::format("a chance node in a game without GSDK_GAME_FLAG_CHANCE: {}", where()));
  if (!chance && (out.player < 0 || out.player >= static_cast<int32_t>(g.player_count))) {
    findings.fail(fmt::format("current_player {} is neither a player (0..{}), terminal nor chance for {}", out.player,
                              g.player_count - 1, where()));
    return std::nullopt;
  }

  std::vector<uint32_t> moves(max_moves + kSlack, kMoveSentinel), again(max_moves + kSlack, kMoveSentinel);
  std::vector<double> probabilities(max_moves + kSlack, kProbabilitySentinel);
  const uint32_t n = g.legal_moves(handle, state.data(), moves.data(), chance ? probabilities.data() : nullptr);
  if (n == 0 || n > max_moves) {
    findings.fail(fmt::format("{} legal moves (max_moves {}) in the non-terminal state {}", n, max_moves, where()));
    return std::nullopt;
  }
  if (std::any_of(moves.begin() + max_moves, moves.end(), [](uint32_t m) { return m != kMoveSentinel; }))
    findings.fail(fmt::format("legal_moves wrote past max_moves ({}) entries for {}", max_moves, where()));
  if (std::set<uint32_t>(moves.begin(), moves.begin() + n).size() != n)
    findings.fail(fmt::format("legal_moves listed a move twice for {}", where()));
  const uint32_t n_again = g.legal_moves(handle, state.data(), again.data(), nullptr);
  if (n_again != n || !std::equal(moves.begin(), moves.begin() + n, again.begin()))
    findings.fail(fmt::format("legal_moves is not a pure function: {} then {} moves for {}", n, n_again, where()));
  if (chance) {
    double sum = 0;
    for (uint32_t k = 0; k < n; ++k) {
      if (!(probabilities[k] >= 0.0 && probabilities[k] <= 1.0))
        findings.fail(fmt::format("chance outcome {} has probability {} for {}", moves[k], probabilities[k], where()));
      sum += probabilities[k];
    }
    if (std::any_of(probabilities.begin() + max_moves, probabilities.end(),
                    [](double p) { return p != kProbabilitySentinel; }))
      findings.fail(fmt::format("legal_moves wrote probabilities past max_moves entries for {}", where()));
    if (std::abs(sum - 1.0) > 1e-9)
      findings.fail(fmt::format("chance probabilities sum to {:.12f}, expected 1, for {}", sum, where()));
    out.probabilities.assign(probabilities.begin(), probabilities.begin() + n);
  }
  if (state.blob() != before) findings.fail(fmt::format("a per-state query changed the state {}", where()));
  out.moves.assign(moves.begin(), moves.begin() + n);
  return out;
}

RandomGame play_random_game(const CheckContext& context, std::mt19937_64& random, const core::StateBlob& start,
                            Findings& findings) {
  const uint32_t size = context.game().state_size();
  GuardedState state(size, start);
  RandomGame game;
  for (uint64_t step = 0;; ++step) {
    if (step > kLongestGame) {
      findings.fail(
          fmt::format("a random game from {} did not end within {} moves", context.quote(start), kLongestGame));
      return game;
    }
    game.states.push_back(state.blob());
    const std::optional<InspectedState> view = inspect_state(context, state, findings);
    if (!view) return game;
    if (view->player == GSDK_PLAYER_TERMINAL) {
      game.ended = true;
      game.score = view->score;
      return game;
    }
    const uint32_t n = static_cast<uint32_t>(view->moves.size());
    uint32_t pick = static_cast<uint32_t>(random() % n);
    if (view->player == GSDK_PLAYER_CHANCE) {
      double u = std::uniform_real_distribution<double>(0, 1)(random);
      for (pick = 0; pick + 1 < n && u >= view->probabilities[pick]; ++pick) u -= view->probabilities[pick];
    }
    const core::StateBlob before = state.blob();
    context.table().apply_move(context.handle(), state.data(), view->moves[pick]);
    game.moves.push_back(view->moves[pick]);
    if (!state.guards_intact()) {
      findings.fail(fmt::format("apply_move({}) wrote outside the state's {} bytes in {}", view->moves[pick], size,
                                context.quote(before)));
      return game;
    }
  }
}

std::vector<core::StateBlob> states_in_play(const CheckContext& context, std::mt19937_64& random, int games,
                                            Findings& findings) {
  std::vector<core::StateBlob> states;
  const core::StateBlob start = context.game().initial_state();
  for (int g = 0; g < games && !findings.failed(); ++g) {
    RandomGame game = play_random_game(context, random, start, findings);
    states.insert(states.end(), game.states.begin(), game.states.end());
  }
  return states;
}

std::vector<core::StateBlob> mid_game_states(const CheckContext& context, uint64_t seed, Findings& findings) {
  std::mt19937_64 random(seed);
  const RandomGame game = play_random_game(context, random, context.game().initial_state(), findings);
  std::vector<core::StateBlob> out;
  if (!game.ended || game.states.size() < 2) return out;
  const size_t live = game.states.size() - 1; // the last state is terminal
  for (const size_t quarter : {1, 2, 3}) {
    const core::StateBlob& s = game.states[live * quarter / 4];
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

} // namespace gsdk::host::conformance
