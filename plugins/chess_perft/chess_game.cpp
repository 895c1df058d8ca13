// chess_game.cpp - the per-state table, CPU perft and canonical positions of chess_perft.so.
#include "chess_game.hpp"

#include <stdexcept>

#include "cpu/cpu_perft.hpp"

#include "rules/canonical.hpp"
#include "rules/fen.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace chess {

namespace {

const gsdk_param_desc kParameters[] = {
    {"gpu_leaf_kernel", GSDK_PARAM_STRING, 0, 0, 0.0, "thread", 0, 0,
     "how GPU perft counts the last two plies: 'thread' (one thread per position) or 'warp' (one warp per "
     "position, one lane per move)"},
};

// Dead positions FIDE ends at once: only kings, or kings and one knight or bishop.
bool insufficient_material(const Position& p) {
  if (p.pawns || p.orthogonal) return false; // orthogonal covers rooks and queens
  return popcount(p.knights | p.diagonal) <= 1;
}

} // namespace

std::span<const gsdk_param_desc> Game::parameters() { return kParameters; }

Game::Game(const gsdk::Params& params) {
  const std::string kernel = params.get_string("gpu_leaf_kernel");
  if (kernel == "warp") leaf_kernel_ = LeafKernel::warp_per_position;
  else if (kernel != "thread")
    throw gsdk::PluginError("gpu_leaf_kernel = '" + kernel + "', expected 'thread' or 'warp'");
}

void Game::initial_state(State& s) const { s = parse_fen(kStartFen); }

int32_t Game::current_player(const State& s) const {
  if (s.halfmove >= 150 || insufficient_material(s) || count_legal_moves(s) == 0) return GSDK_PLAYER_TERMINAL;
  return s.side;
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  uint32_t n = 0;
  for_each_legal_move(s, [&](Move m) { moves[n++] = m; });
  return n;
}

void Game::apply_move(State& s, uint32_t move) const { make_move(s, move); }

int64_t Game::score(const State& s) const {
  if (count_legal_moves(s) != 0) return 0; // a draw by rule
  const Position& p = s;
  const Bitboard occupied = p.occupied();
  const Bitboard own = p.color(p.side);
  const KingSafety safety = p.side == kWhite ? king_safety<kWhite>(p, own, occupied ^ own, occupied)
                                             : king_safety<kBlack>(p, own, occupied ^ own, occupied);
  if (!safety.checks) return 0; // stalemate
  return p.side == kWhite ? -1 : 1;
}

std::string Game::state_to_string(const State& s) const { return to_fen(s); }

std::string Game::move_to_string(const State&, uint32_t move) const { return move_to_uci(move); }

Game::State Game::state_from_string(std::string_view text) const {
  try {
    if (text == "start" || text == "startpos") return parse_fen(kStartFen);
    return parse_fen(text);
  } catch (const std::invalid_argument& e) {
    throw gsdk::PluginError(e.what());
  }
}

uint64_t Game::cpu_perft(const State& s, uint32_t depth) const { return cpu::perft(s, depth); }

void Game::canonical_state(State& s) const { canonicalize(s); }

} // namespace chess
