// snake_game.cpp - the parameters, per-state table, CPU perft, canonical states, CPU playouts and replays of
// snake.so.
#include "snake_game.hpp"

#include <cstring>
#include <stdexcept>

#include "checker/snake_check.hpp"
#include "checker/snake_document.hpp"
#include "cpu/perft_cpu.hpp"
#include "cpu/playouts_cpu.hpp"
#include "rules/blocked_subcubes.hpp"
#include "rules/canonical.hpp"
#include "rules/snake_text.hpp"

namespace snake {

namespace {

const gsdk_param_desc kParameters[] = {
    {"dimension", GSDK_PARAM_INT, 0, 8, 0.0, nullptr, kMinDimension, kMaxDimension,
     "the hypercube's dimension d (3..13): 2^d vertices, moves 0..d-1"},
    {"symmetry_breaking", GSDK_PARAM_BOOL, 0, 1, 0.0, nullptr, 0, 1,
     "search only snakes whose dimensions appear in order of first use (a move flips a dimension used before "
     "or the lowest unused one; the first moves are 0, 1, 2): loses no snake length, up to relabelling"},
    {"policy", GSDK_PARAM_STRING, 0, 0, 0.0, "uniform", 0, 0,
     "the batch playouts' move choice: 'uniform' (every legal move alike) or 'kinny' (Kinny's heuristic: "
     "prefer the moves after which exactly one move is legal, uniformly among them, else uniform) or 'tight' "
     "(prefer the moves after which the fewest moves, but at least one, are legal)"},
    {"blocked_subcubes", GSDK_PARAM_STRING, 0, 0, 0.0, "", 0, 0,
     "sub-cubes the snake may not enter, comma-separated, each d characters '0', '1' or '*' with the highest "
     "dimension first ('10********' in dimension 10: bit 9 set, bit 8 clear); they break the cube's symmetry, "
     "so they need symmetry_breaking = false"},
    {"evaluation", GSDK_PARAM_STRING, 0, 0, 0.0, "reachable", 0, 0,
     "the fitness a search ranks snakes of one length by: 'reachable' (2 R - max(D - 1, 0): R the free vertices "
     "the head can reach, D the dead ends among them) or 'free' (the vertices neither blocked nor the head)"},
};

Policy parse_policy(const std::string& name) {
  if (name == "uniform") return Policy::uniform;
  if (name == "kinny") return Policy::kinny;
  if (name == "tight") return Policy::tight;
  throw gsdk::PluginError("policy = '" + name + "', expected 'uniform', 'kinny' or 'tight'");
}

Evaluation parse_evaluation(const std::string& name) {
  if (name == "reachable") return Evaluation::reachable;
  if (name == "free") return Evaluation::free;
  throw gsdk::PluginError("evaluation = '" + name + "', expected 'reachable' or 'free'");
}

} // namespace

std::span<const gsdk_param_desc> Game::parameters() {
  return kParameters;
}

Game::Game(const gsdk::Params& params) {
  const int64_t dimension = params.get_int("dimension");
  if (dimension < kMinDimension || dimension > kMaxDimension)
    throw gsdk::PluginError("dimension = " + std::to_string(dimension) + ", expected an integer in " +
                            std::to_string(kMinDimension) + ".." + std::to_string(kMaxDimension));
  rules_ = Rules{static_cast<uint32_t>(dimension), params.get_bool("symmetry_breaking")};
  policy_ = parse_policy(params.get_string("policy"));
  evaluation_ = parse_evaluation(params.get_string("evaluation"));
  start_state(initial_, rules_.dimension);
  const std::string subcubes = params.get_string("blocked_subcubes");
  try {
    block_subcubes(initial_, parse_subcubes(subcubes, rules_.dimension));
  } catch (const std::invalid_argument& e) {
    throw gsdk::PluginError("blocked_subcubes = '" + subcubes + "': " + e.what());
  }
  // Symmetry breaking relabels dimensions freely, which is sound only while every relabelling maps the box
  // onto itself; a blocked sub-cube fixes some dimensions' roles.
  if (has_blocked_subcubes() && rules_.symmetry_breaking)
    throw gsdk::PluginError("blocked_subcubes = '" + subcubes +
                            "' needs symmetry_breaking = false: a blocked sub-cube breaks the symmetry that symmetry "
                            "breaking relies on");
}

bool Game::has_blocked_subcubes() const {
  for (const uint64_t w : initial_.blocked)
    if (w) return true;
  return false;
}

void Game::initial_state(State& s) const {
  s = initial_;
}

int32_t Game::current_player(const State& s) const {
  return legal_dimensions(rules_, s) == 0 ? GSDK_PLAYER_TERMINAL : 0;
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  uint32_t n = 0;
  for (uint32_t rest = legal_dimensions(rules_, s); rest; rest &= rest - 1) moves[n++] = lowest_bit(rest);
  return n;
}

void Game::apply_move(State& s, uint32_t move) const {
  play(rules_, s, move);
}

std::string Game::state_to_string(const State& s) const {
  return to_text(s);
}

Game::State Game::state_from_string(std::string_view text) const {
  try {
    return parse_text(text, rules_, initial_);
  } catch (const std::invalid_argument& e) {
    throw gsdk::PluginError(std::string("snake: ") + e.what());
  }
}

uint64_t Game::cpu_perft(const State& s, uint32_t depth) const {
  return cpu::perft(rules_, s, depth);
}

void Game::canonical_state(State& s) const {
  canonicalize(s);
}

const State& Game::playout_start(const void* start_state) const {
  if (!start_state) return initial_;
  // Replaying the stored moves and comparing the blobs proves every field consistent, which the playouts
  // rely on (a length past the bound would overrun the histogram); it costs less than one playout.
  const State& s = *static_cast<const State*>(start_state);
  const auto refuse = [&](const std::string& why) {
    return gsdk::PluginError("snake: the playout start state is not a snake of this game (dimension " +
                             std::to_string(rules_.dimension) + "): " + why);
  };
  if (s.dimension != rules_.dimension) throw refuse("its dimension is " + std::to_string(s.dimension));
  if (s.length > length_bound(rules_.dimension)) throw refuse("its length is " + std::to_string(s.length));
  State replayed = initial_;
  for (uint32_t i = 0; i < s.length; ++i) {
    const uint32_t k = move_at(s, i);
    if (k >= rules_.dimension || (legal_dimensions(rules_, replayed) & (1u << k)) == 0)
      throw refuse("its move " + std::to_string(i) + " (" + std::to_string(k) + ") is illegal");
    play(rules_, replayed, k);
  }
  if (std::memcmp(&replayed, &s, sizeof s) != 0) throw refuse("its bitset or head disagrees with its moves");
  return s;
}

void Game::cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
  cpu::playouts(rules_, policy_, playout_start(request.start_state), request.seed, request.first_playout,
                request.playout_count, summary);
}

std::vector<uint32_t> Game::replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
  State s = playout_start(start);
  Walk walk = walk_of(s);
  std::vector<uint32_t> moves;
  random_snake(rules_, policy_, WordBits{s.blocked}, walk, seed, playout, [&](uint32_t k) { moves.push_back(k); });
  return moves;
}

std::string Game::sequence_document(std::span<const uint32_t> moves) const {
  return checker::snake_document(rules_.dimension, moves);
}

void Game::check_sequence(std::span<const uint32_t> moves) const {
  const std::vector<uint32_t> list(moves.begin(), moves.end());
  const checker::SnakeVerdict verdict = checker::check_snake({rules_.dimension, list, checker::walk_vertices(list)});
  if (!verdict.ok) throw gsdk::PluginError("an invalid snake: " + verdict.violation);
}

} // namespace snake
