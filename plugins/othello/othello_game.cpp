// othello_game.cpp - the per-state table, CPU perft and CPU playouts of othello.so.
#include "othello_game.hpp"

#include <algorithm>
#include <stdexcept>

#include "cpu/pattern_sum_cpu.hpp"
#include "cpu/perft_cpu.hpp"
#include "cpu/playouts_cpu.hpp"
#include "gsdk/playout_summary.hpp"
#include "rules/board_text.hpp"
#include "rules/canonical.hpp"
#include "rules/endgame.hpp"
#include "rules/evaluation.hpp"
#include "rules/random_game.hpp"
#include "shipped_weights.hpp"

namespace othello {

namespace {

const gsdk_param_desc kParameters[] = {
    {"perft_convention", GSDK_PARAM_STRING, 0, 0, 0.0, "standard", 0, 0,
     "how perft (and the move lists) treat passes and finished games: 'standard' (a pass is a ply, a finished "
     "game is a leaf), 'finished_not_leaf' (a finished game before the last ply adds nothing) or 'free_pass' "
     "(a forced pass costs no ply)"},
    {"exact_empties", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, kMaxSolvedEmpties,
     "playouts that start with at most this many empty squares are not random: each reports the outcome of "
     "perfect play from its start, as score 1, 0 or -1 (black wins, draws or loses), found once per start by "
     "exhaustive search; 0: every playout is random. Gives a tree search exact values near the end of the game"},
    {"playout_policy", GSDK_PARAM_STRING, 0, 0, 0.0, "random", 0, 0,
     "how playouts choose their moves: 'random' (uniformly among the legal squares), 'corners' (a corner "
     "when there is one, else uniformly among the squares not next to an empty corner, else among all) or "
     "'mobility' (as corners, but three moves in four only among those that leave the opponent the fewest "
     "replies; seven to eight times the cost of a random game)"},
    {"evaluation", GSDK_PARAM_STRING, 0, 0, 0.0, "patterns", 0, 0,
     "the static evaluation that alpha-beta and evaluation-backed searches use: 'patterns' (edge, corner and line "
     "patterns with weights per game stage that gsdk learned from exact endgame values and searches into them, "
     "data/evaluation_weights.bin; the stronger, docs/perf/othello.md) or 'basic' (hand-set weights on mobility, "
     "corners, X-squares, anchored edges and parity)"},
    {"weights", GSDK_PARAM_STRING, 0, 0, 0.0, "", 0, 0,
     "evaluation=patterns only: a weights file written by fit_evaluation to use instead of the shipped "
     "data/evaluation_weights.bin (empty: the shipped weights)"},
};

} // namespace

std::span<const gsdk_param_desc> Game::parameters() {
  return kParameters;
}

Game::Game(const gsdk::Params& params) {
  const std::string convention = params.get_string("perft_convention");
  if (convention == "standard")
    convention_ = Convention::standard;
  else if (convention == "finished_not_leaf")
    convention_ = Convention::finished_not_leaf;
  else if (convention == "free_pass")
    convention_ = Convention::free_pass;
  else
    throw gsdk::PluginError("perft_convention = '" + convention +
                            "', expected 'standard', 'finished_not_leaf' or 'free_pass'");
  exact_empties_ = static_cast<uint32_t>(params.get_int("exact_empties"));
  const std::string policy = params.get_string("playout_policy");
  if (policy == "random")
    policy_ = PlayoutPolicy::random;
  else if (policy == "corners")
    policy_ = PlayoutPolicy::corners;
  else if (policy == "mobility")
    policy_ = PlayoutPolicy::mobility;
  else
    throw gsdk::PluginError("playout_policy = '" + policy + "', expected 'random', 'corners' or 'mobility'");
  const std::string evaluation = params.get_string("evaluation");
  const std::string weights_file = params.get_string("weights");
  if (evaluation != "patterns" && evaluation != "basic")
    throw gsdk::PluginError("evaluation = '" + evaluation + "', expected 'patterns' or 'basic'");
  if (evaluation == "basic" && !weights_file.empty())
    throw gsdk::PluginError("weights = '" + weights_file + "' needs evaluation = 'patterns' (it is 'basic')");
  patterns_ = evaluation == "patterns";
  // A named file is read now, so that its errors stop the game's construction; the shipped weights are decoded on
  // the first evaluation, so that runs without one (perft, playouts) do not pay for it.
  if (patterns_ && !weights_file.empty()) loaded_weights_ = pattern_weights_from_file(weights_file);
}

void Game::initial_state(State& s) const {
  s = start_position();
}

int32_t Game::current_player(const State& s) const {
  return game_over(s) ? GSDK_PLAYER_TERMINAL : static_cast<int32_t>(s.side);
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  const MoveSet set = move_set(s, convention_);
  if (set.pass_only) {
    moves[0] = kPass;
    return 1;
  }
  uint32_t n = 0;
  for (Bitboard rest = set.squares; rest; rest &= rest - 1) moves[n++] = lowest_square(rest);
  return n;
}

void Game::apply_move(State& s, uint32_t move) const {
  s = child(s, move, convention_);
}

int64_t Game::score(const State& s) const {
  return state_score(s);
}

std::string Game::state_to_string(const State& s) const {
  return to_text(s);
}

std::string Game::move_to_string(const State&, uint32_t move) const {
  return move_name(move);
}

Game::State Game::state_from_string(std::string_view text) const {
  try {
    Position p = parse_text(text);
    settle(p, convention_);
    return p;
  } catch (const std::invalid_argument& e) {
    throw gsdk::PluginError(e.what());
  }
}

uint64_t Game::cpu_perft(const State& s, uint32_t depth) const {
  if (cpu::best_simd_level() == GSDK_SIMD_AVX512) return cpu::perft_avx512(s, depth, convention_);
  return cpu::perft_portable(s, depth, convention_);
}

void Game::canonical_state(State& s) const {
  canonicalize(s);
}

int32_t Game::best_simd_level() {
  return cpu::best_simd_level();
}

Position Game::playout_start(const void* start_state) const {
  if (!start_state) return start_position();
  const Position p = *static_cast<const Position*>(start_state);
  if ((p.own & p.opponent) != 0 || p.side > kWhite || p.reserved != 0)
    throw gsdk::PluginError("othello: the playout start state is not an Othello position (a square held by both "
                            "sides, or a side other than black or white)");
  return p;
}

bool Game::exact_state(const Position& start) const {
  return exact_start(start, exact_empties_);
}

int32_t Game::evaluation_scale() const {
  return kEvaluationScale;
}
const int16_t* Game::pattern_weights() const {
  return loaded_weights_ ? loaded_weights_->data() : shipped_pattern_weights().data();
}

int32_t Game::evaluate(const Position& s) const {
  return patterns_ ? pattern_evaluation_cpu(s, pattern_weights()) : othello::evaluate(s);
}
uint64_t Game::state_hash(const Position& s) const {
  return position_hash(s);
}

void Game::record_perfect_play(const Position& start, const gsdk_playout_request& request,
                               gsdk_playout_summary& summary) {
  const int32_t outcome = perfect_play_outcome(start);
  const int32_t score = start.side == kBlack ? outcome : -outcome;
  summary.playouts += request.playout_count;
  summary.histogram[score + 64] += request.playout_count;
  gsdk::record_extremes(summary, score, request.first_playout);
}

void Game::cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
  const Position start = playout_start(request.start_state);
  if (request.playout_count > 0 && exact_state(start)) return record_perfect_play(start, request, summary);
  if (std::min(request.simd_level, cpu::best_simd_level()) == GSDK_SIMD_AVX512)
    cpu::playouts_avx512(start, request.seed, request.first_playout, request.playout_count, policy_, summary);
  else
    cpu::playouts_scalar(start, request.seed, request.first_playout, request.playout_count, policy_, summary);
}

std::vector<uint32_t> Game::replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
  std::vector<uint32_t> moves;
  // Under free_pass the per-state table makes forced passes itself, so a replay leaves them out.
  const bool log_passes = convention_ != Convention::free_pass;
  const auto log = [&](uint32_t move) {
    if (move != kPass || log_passes) moves.push_back(move);
  };
  const Position first = playout_start(start);
  if (exact_state(first))
    perfect_line(first, log);
  else
    random_game(first, seed, playout, policy_, log);
  return moves;
}

} // namespace othello
