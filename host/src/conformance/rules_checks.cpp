// rules_checks.cpp - the checks of the per-state table (gsdk.game.v1) over random games: the initial
// state, every invariant at every step, text round trips, every listed move legal, play from states
// reached in play, garbage text refused, and exact states.
#include <cstring>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::host::conformance {

namespace {

void initial_state(CheckContext& context, Findings& findings) {
  const uint32_t size = context.game().state_size();
  GuardedState first(size);
  context.table().initial_state(context.handle(), first.data());
  if (!first.guards_intact()) findings.fail(fmt::format("initial_state wrote outside the state's {} bytes", size));
  GuardedState second(size);
  std::memset(second.data(), 0xee, size);
  context.table().initial_state(context.handle(), second.data());
  if (first.blob() != second.blob())
    findings.fail("initial_state leaves bytes of the buffer as they were: it must write every byte of the state");
}

void random_games_end(CheckContext& context, Findings& findings) {
  std::mt19937_64 random(20240601);
  const core::StateBlob start = context.game().initial_state();
  uint64_t moves = 0;
  for (int game = 0; game < 300 && moves < 300000 && !findings.failed(); ++game) {
    const RandomGame played = play_random_game(context, random, start, findings);
    moves += played.moves.size();
  }
  if (moves == 0 && !findings.failed()) findings.fail("the initial state is terminal: there is no game to play");
}

// The text of `state` through a buffer of exactly `size` bytes; returns what state_to_string returned.
uint32_t text_into(const CheckContext& context, const core::StateBlob& state, std::string& buffer, uint32_t size) {
  buffer.assign(size, 'x');
  return context.table().state_to_string(context.handle(), state.data(), buffer.data(), size);
}

void text_round_trip(CheckContext& context, Findings& findings) {
  std::mt19937_64 random(1);
  const std::vector<core::StateBlob> states = states_in_play(context, random, 100, findings);
  const uint32_t size = context.game().state_size();
  std::string buffer;
  size_t checked = 0;
  for (const core::StateBlob& state : states) {
    if (findings.failed() || ++checked > 100000) break;
    const std::string text = context.game().state_to_string(state);
    if (text_into(context, state, buffer, 1) != text.size() || buffer[0] != '\0')
      findings.fail(fmt::format("state_to_string into a 1-byte buffer must return the full length {} and write only "
                                "the terminating NUL, for {}",
                                text.size(), context.quote(state)));
    GuardedState parsed(size);
    if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
          return context.table().state_from_string(context.handle(), text.c_str(), parsed.data(), error, size);
        })) {
      findings.fail(fmt::format("state_from_string refused the text of a state reached in play, \"{}\": {}", text,
                                failure->message));
      continue;
    }
    if (!parsed.guards_intact()) findings.fail("state_from_string wrote outside the state's bytes");
    if (parsed.blob() != state)
      findings.fail(fmt::format("state_from_string(state_to_string(s)) != s: \"{}\" reads back as {}", text,
                                context.quote(parsed.blob())));
    if (context.game().current_player(state) == GSDK_PLAYER_TERMINAL) continue;
    std::vector<uint32_t> moves(context.game().max_moves());
    const uint32_t n = context.game().checked_legal_moves(state, moves);
    for (uint32_t k = 0; k < n; ++k) {
      char name[256] = {};
      if (context.table().move_to_string(context.handle(), state.data(), moves[k], name, sizeof name) == 0)
        findings.fail(
            fmt::format("legal move {} of {} has no name (move_to_string returned 0)", moves[k], context.quote(state)));
    }
  }
}

void listed_moves_legal(CheckContext& context, Findings& findings) {
  std::mt19937_64 random(2);
  const std::vector<core::StateBlob> states = states_in_play(context, random, 20, findings);
  const uint32_t size = context.game().state_size();
  size_t parents = 0;
  for (const core::StateBlob& state : states) {
    if (findings.failed() || parents > 5000) break;
    const std::optional<InspectedState> view = inspect_state(context, GuardedState(size, state), findings);
    if (!view || view->player == GSDK_PLAYER_TERMINAL) continue;
    ++parents;
    for (uint32_t move : view->moves) {
      GuardedState child(size, state);
      context.table().apply_move(context.handle(), child.data(), move);
      const std::string name = context.game().move_to_string(state, move);
      if (!child.guards_intact()) {
        findings.fail(fmt::format("apply_move of listed move {} ({}) wrote outside the state's {} bytes in {}", move,
                                  name, size, context.quote(state)));
        break;
      }
      Findings after;
      inspect_state(context, child, after);
      if (after.failed()) {
        findings.fail(
            fmt::format("after listed move {} ({}) of {}: {}", move, name, context.quote(state), after.reason()));
        break;
      }
    }
  }
}

void mid_game_starts(CheckContext& context, Findings& findings) {
  std::mt19937_64 random(77);
  const RandomGame first = play_random_game(context, random, context.game().initial_state(), findings);
  const std::vector<core::StateBlob>& visited = first.states;
  for (size_t i = 0; i < visited.size() && !findings.failed(); i += std::max<size_t>(1, visited.size() / 20)) {
    core::StateBlob parsed;
    try {
      parsed = context.game().state_from_string(context.game().state_to_string(visited[i]));
    } catch (const std::exception& e) {
      findings.stop(fmt::format("the text of a state reached in play does not read back: {}", e.what()));
    }
    for (int k = 0; k < 3; ++k) play_random_game(context, random, parsed, findings);
  }
}

void garbage_text_refused(CheckContext& context, Findings& findings) {
  GuardedState state(context.game().state_size());
  char error[1024] = {};
  const char* garbage = "\x01 certainly not a state \x02";
  if (context.table().state_from_string(context.handle(), garbage, state.data(), error, sizeof error) == GSDK_OK)
    findings.fail("state_from_string accepted \"\\x01 certainly not a state \\x02\"");
  else if (error[0] == '\0')
    findings.fail("state_from_string refused garbage without a message: a refusal must say why");
  if (!state.guards_intact()) findings.fail("state_from_string wrote outside the state's bytes");
}

void exact_states(CheckContext& context, Findings& findings) {
  const auto evaluator = core::make_cpu_evaluator(context.game());
  std::mt19937_64 random(31);
  int exact = 0;
  for (const core::StateBlob& s : states_in_play(context, random, 20, findings)) {
    if (findings.failed()) break;
    if (context.game().current_player(s) < 0 || !context.game().is_exact(s.data())) continue;
    ++exact;
    const core::WinDrawLoss r = evaluator->evaluate(s, 16);
    if (r.wins != 16 && r.draws != 16 && r.losses != 16)
      findings.fail(fmt::format("is_exact says the playouts from {} report one outcome, but 16 gave {} wins, {} draws, "
                                "{} losses",
                                context.quote(s), r.wins, r.draws, r.losses));
  }
  if (exact == 0 && !findings.failed())
    findings.skip("no exact state came up in 20 random games under these parameters");
}

void evaluation(CheckContext& context, Findings& findings) {
  const core::GameInstance& game = context.game();
  const gsdk_evaluation& table = *game.tables().evaluation;
  const int32_t scale = table.scale(game.handle());
  if (scale < 1 || scale > (1 << 24)) findings.stop(fmt::format("scale is {}, expected 1 .. 2^24", scale));
  std::mt19937_64 random(53);
  std::vector<core::StateBlob> live;
  for (core::StateBlob& s : states_in_play(context, random, 10, findings))
    if (game.current_player(s) >= 0) live.push_back(std::move(s));
  if (findings.failed()) return;
  std::vector<unsigned char> batch;
  for (const core::StateBlob& s : live) batch.insert(batch.end(), s.begin(), s.end());
  std::vector<int32_t> values(live.size());
  if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
        return table.evaluate(game.handle(), batch.data(), static_cast<uint32_t>(live.size()), values.data(), error,
                              size);
      }))
    findings.stop(fmt::format("evaluate of {} states reached in play failed: {}", live.size(), failure->message));
  for (size_t k = 0; k < live.size() && !findings.failed(); ++k) {
    int32_t alone = 0;
    if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
          return table.evaluate(game.handle(), live[k].data(), 1, &alone, error, size);
        }))
      findings.stop(fmt::format("evaluate of {} failed: {}", context.quote(live[k]), failure->message));
    if (alone != values[k] || values[k] <= -scale || values[k] >= scale)
      findings.fail(fmt::format("evaluate of {} gave {} in a batch and {} alone; expected one value in ({}, {})",
                                context.quote(live[k]), values[k], alone, -scale, scale));
    const core::StateBlob reread = game.state_from_string(game.state_to_string(live[k]));
    if (table.hash(game.handle(), reread.data()) != table.hash(game.handle(), live[k].data()))
      findings.fail(
          fmt::format("hash of {} changes when the state is read back from its text", context.quote(live[k])));
  }
}

} // namespace

std::vector<CheckSpec> rules_checks() {
  return {
      {"rules.initial_state",
       "initial_state writes every byte of the state and nothing outside it",
       {},
       false,
       initial_state},
      {"rules.random_games_end",
       "300 random games end, keeping every invariant at every state (players, moves, probabilities, scores, bytes)",
       {},
       false,
       random_games_end},
      {"rules.text_round_trip",
       "states reached in play read back from their text; short buffers report the full length; moves have names",
       {},
       false,
       text_round_trip},
      {"rules.listed_moves_legal",
       "applying every listed move of states reached in play keeps every invariant",
       {},
       false,
       listed_moves_legal},
      {"rules.mid_game_starts",
       "states reached in play, read back from their text, are valid starts for random games",
       {},
       false,
       mid_game_starts},
      {"rules.garbage_text_refused",
       "state_from_string refuses garbage with a message, writing nothing outside",
       {},
       false,
       garbage_text_refused},
      {"rules.exact_states",
       "every playout from a state that is_exact marks reports one and the same outcome",
       {GSDK_TABLE_EXACT_STATES},
       false,
       exact_states},
      {"rules.evaluation",
       "evaluations of states reached in play lie inside the game's scale, equal in a batch and alone; hashes are "
       "stable",
       {GSDK_TABLE_EVALUATION},
       false,
       evaluation},
  };
}

} // namespace gsdk::host::conformance
