// movegen.hpp - legal move generation, for the host and for CUDA devices alike.
//
// The generator finds checks and pins once (the enemy sliders on the king's lines), then emits moves as sets:
// a piece's destinations as one bitboard, pawn moves as one bitboard per shift. A sink decides what
// a set means: CountingSink adds popcounts (perft's bulk count at the last ply, no move list at all),
// EachMove calls a function per move. Only en passant is checked by playing it out, because it can
// uncover the king along the rank, which no pin mask sees.
#pragma once

#include "rules/attack_tables.hpp"

namespace chess {
CHESS_ISA_BEGIN

// What the generator knows after looking at the king.
struct KingSafety {
  Bitboard check_mask; // squares a non-king move must land on: all when not in check
  Bitboard pinned;     // our pieces pinned to the king
  Bitboard pinners;    // the enemy sliders that pin them
  int checks;
};

// An enemy slider on one of the king's lines (of its kind) checks when nothing stands between them and
// pins when exactly one of our pieces does: one table load and a few bit tests a slider, where x-rays from
// the king need two slider lookups and one more per checker and pinner. On the GPU few lanes of a warp
// have such a slider, and the whole warp waits while they test it: the test must be cheap.
template <int Us> GSDK_HD KingSafety king_safety(const Position& p, Bitboard own, Bitboard enemy, Bitboard occupied) {
  const int ksq = p.king[Us];
  const AttackTables& t = tables();
  KingSafety s{};
  s.check_mask = (t.knight[ksq] & p.knights & enemy) | (t.pawn[Us][ksq] & p.pawns & enemy);
  s.checks = s.check_mask ? 1 : 0; // two leapers never check at once
  const Bitboard aligned = ((p.diagonal & t.bishop_lines[ksq]) | (p.orthogonal & t.rook_lines[ksq])) & enemy;
  for (uint32_t sq : squares(aligned)) {
    const Bitboard between = t.between[ksq][sq];
    const Bitboard blockers = between & occupied;
    if (!blockers) {
      s.check_mask |= between | square_bb(sq);
      ++s.checks;
    } else if (!(blockers & (blockers - 1)) && (blockers & own)) {
      s.pinned |= blockers;
      s.pinners |= square_bb(sq);
    }
  }
  if (!s.checks) s.check_mask = ~Bitboard{0};
  return s;
}

// The squares from which a bishop, and a rook, could reach some square of a king's zone (king_zone_lines
// says past what), and those a knight's jump away from it: the only squares an enemy slider or knight can
// attack the zone from. All squares (the default) when not worked out.
struct ZoneLines {
  Bitboard diagonal = ~Bitboard{0};
  Bitboard orthogonal = ~Bitboard{0};
  Bitboard knights = ~Bitboard{0};
};

// The side Us's castling: its rights' bits, and the squares between king and rook that must be empty and
// that the king crosses (which must not be attacked).
template <int Us> struct Castling {
  static constexpr int base = Us == kWhite ? 0 : 56; // the king's first rank
  static constexpr uint8_t short_right = Us == kWhite ? kWhiteShort : kBlackShort;
  static constexpr uint8_t long_right = Us == kWhite ? kWhiteLong : kBlackLong;
  static constexpr Bitboard short_path = Bitboard{0x60} << base; // f, g
  static constexpr Bitboard long_empty = Bitboard{0x0e} << base; // b, c, d
  static constexpr Bitboard long_path = Bitboard{0x0c} << base;  // c, d
};

// The side Us's king zone: the squares it could step to and the castling paths it still has rights to,
// the only squares whose attackers generate_legal<Us> asks for. It does not change while the other side
// moves (which can only take rights away), so the lines through it, worked out once, serve all the other
// side's moves (the GPU leaf kernel's children). Those lines stop at Us's pieces other than the king: they
// stay put while the other side moves, and one it captures leaves the capturer on its square, so an enemy
// slider behind one never reaches the zone. The king does not block (its zone is attacked through it), and
// en passant is the one move that empties a square of ours: that pawn does not block either.
// `landing`: the squares the other side's moves land on, when known. A square of ours next to the king
// joins the zone only if a move can take the piece there: then the king may take the taker.
template <int Us> GSDK_HD ZoneLines king_zone_lines(const Position& p, Bitboard landing) {
  const AttackTables& t = tables();
  using C = Castling<Us>;
  const Bitboard castling_paths =
      ((p.castling & C::short_right) ? C::short_path : 0) | ((p.castling & C::long_right) ? C::long_path : 0);
  const Bitboard own = p.color(Us);
  const Bitboard en_passant_pawn = p.ep_square != kNoSquare ? square_bb(p.ep_square ^ 8) : 0;
  const Bitboard blockers = own & ~square_bb(p.king[Us]) & ~en_passant_pawn;
  ZoneLines lines{0, 0, 0};
  for (uint32_t sq : squares((t.king[p.king[Us]] & (~own | landing | en_passant_pawn)) | castling_paths)) {
    lines.diagonal |= bishop_attacks(sq, blockers);
    lines.orthogonal |= rook_attacks(sq, blockers);
    lines.knights |= t.knight[sq];
  }
  return lines;
}

GSDK_HD ZoneLines king_zone_lines(const Position& p, int side, Bitboard landing = ~Bitboard{0}) {
  return side == kWhite ? king_zone_lines<kWhite>(p, landing) : king_zone_lines<kBlack>(p, landing);
}

// Squares the side Them attacks, seen through the king of the other side (so it cannot step back
// along a checking ray); exact on `relevant` when `lines` hold the lines through it: sliders off those
// lines are not looked up.
template <int Them>
GSDK_HD Bitboard attacked_squares(const Position& p, Bitboard enemy, Bitboard occupied_without_king, Bitboard relevant,
                                  const ZoneLines& lines) {
  const AttackTables& t = tables();
  const Bitboard pawns = p.pawns & enemy;
  Bitboard a = pawn_attacks_west<Them>(pawns) | pawn_attacks_east<Them>(pawns) | t.king[p.king[Them]];
#if defined(__CUDA_ARCH__)
  // A warp's lanes do a lookup when any of them does (one that skips is only predicated off), so on the GPU
  // testing a slider's lines one by one costs a load and two instructions without saving any; `lines`,
  // one AND for all sliders, is what shortens the loops. Knights near the zone are few: a lookup each
  // costs less than the set-wise jumps of all of them.
  for (uint32_t sq : squares(p.knights & enemy & lines.knights)) a |= t.knight[sq];
  for (uint32_t sq : squares(p.diagonal & enemy & lines.diagonal)) a |= bishop_attacks(sq, occupied_without_king);
  for (uint32_t sq : squares(p.orthogonal & enemy & lines.orthogonal)) a |= rook_attacks(sq, occupied_without_king);
  (void)relevant;
#else
  a |= knight_attacks_set(p.knights & enemy & lines.knights);
  for (uint32_t sq : squares(p.diagonal & enemy & lines.diagonal))
    if (t.bishop_lines[sq] & relevant) a |= bishop_attacks(sq, occupied_without_king);
  for (uint32_t sq : squares(p.orthogonal & enemy & lines.orthogonal))
    if (t.rook_lines[sq] & relevant) a |= rook_attacks(sq, occupied_without_king);
#endif
  return a;
}

// Whether square sq is attacked through `occupied` by the side Them's pieces among `them`.
template <int Them> GSDK_HD bool is_attacked(const Position& p, int sq, Bitboard them, Bitboard occupied) {
  const AttackTables& t = tables();
  return (t.knight[sq] & p.knights & them) || (t.pawn[1 - Them][sq] & p.pawns & them) ||
         (t.king[sq] & square_bb(p.king[Them])) || (bishop_attacks(sq, occupied) & p.diagonal & them) ||
         (rook_attacks(sq, occupied) & p.orthogonal & them);
}

// The squares of `candidates` that the side Them attacks, the king of the other side taken off the
// board. None (a king boxed in by its own pieces, as in the opening) costs nothing. With PEXT lookups
// on the CPU, testing one or two squares is cheaper than the whole attack set, and the branch predicts
// well; GPU threads would diverge on it, so they build the whole set.
template <int Them>
GSDK_HD Bitboard attacked_among(const Position& p, Bitboard candidates, Bitboard enemy, Bitboard occupied_without_king,
                                const ZoneLines& lines) {
  if (!candidates) return 0;
#if defined(CHESS_USE_PEXT)
  if (popcount(candidates) <= 2) {
    Bitboard attacked = 0;
    for (Bitboard b = candidates; b; b &= b - 1)
      if (is_attacked<Them>(p, lowest_square(b), enemy, occupied_without_king)) attacked |= b & (0 - b);
    return attacked;
  }
#endif
  return candidates & attacked_squares<Them>(p, enemy, occupied_without_king, candidates, lines);
}

template <int Us> GSDK_HD bool en_passant_is_legal(const Position& p, int from, Bitboard enemy, Bitboard occupied) {
  const int captured = (from & ~7) | (p.ep_square & 7);
  const Bitboard after = occupied ^ square_bb(from) ^ square_bb(p.ep_square) ^ square_bb(captured);
  return !is_attacked<1 - Us>(p, p.king[Us], enemy & ~square_bb(captured), after);
}

// Pawn moves of the pawns in `pawns`, landing only inside `allowed`.
template <int Us, class Sink>
GSDK_HD void pawn_moves(Bitboard pawns, Bitboard enemy, Bitboard empty, Bitboard allowed, Sink& sink) {
  constexpr Bitboard last_rank = Us == kWhite ? kRank8 : kRank1;
  constexpr Bitboard double_rank = Us == kWhite ? (kRank1 << 16) : (kRank1 << 40); // after one step
  constexpr int forward = Us == kWhite ? 8 : -8;
  const Bitboard one = pawn_push<Us>(pawns) & empty;
  const Bitboard two = pawn_push<Us>(one & double_rank) & empty & allowed;
  const Bitboard push = one & allowed;
  const Bitboard west = pawn_attacks_west<Us>(pawns) & enemy & allowed;
  const Bitboard east = pawn_attacks_east<Us>(pawns) & enemy & allowed;
  sink.pawn_moves(push, two, west, east, last_rank, forward);
}

// `lines`: those through the king zone of the side to move (king_zone_lines), when known.
template <int Us, class Sink> GSDK_HD void generate_legal(const Position& p, Sink& sink, const ZoneLines& lines = {}) {
  constexpr int Them = 1 - Us;
  const Bitboard occupied = p.occupied();
  const Bitboard own = Us == kWhite ? p.white : occupied & ~p.white;
  const Bitboard enemy = occupied ^ own;
  const int ksq = p.king[Us];
  const AttackTables& t = tables();

  using C = Castling<Us>;
  const bool short_open = (p.castling & C::short_right) && !(occupied & C::short_path);
  const bool long_open = (p.castling & C::long_right) && !(occupied & C::long_empty);
  const Bitboard king_squares = t.king[ksq] & ~own;
  const Bitboard castling_paths = (short_open ? C::short_path : 0) | (long_open ? C::long_path : 0);
  const Bitboard danger =
      attacked_among<Them>(p, king_squares | castling_paths, enemy, occupied ^ square_bb(ksq), lines);
  sink.piece(ksq, king_squares & ~danger);

  const KingSafety s = king_safety<Us>(p, own, enemy, occupied);
  if (s.checks > 1) return;
  const Bitboard targets = ~own & s.check_mask;
  const Bitboard empty = ~occupied;

  const Bitboard free = ~s.pinned;
  for (uint32_t sq : squares(p.knights & own & free)) sink.piece(sq, t.knight[sq] & targets);
  for (uint32_t sq : squares(p.diagonal & own & free)) sink.piece(sq, bishop_attacks(sq, occupied) & targets);
  for (uint32_t sq : squares(p.orthogonal & own & free)) sink.piece(sq, rook_attacks(sq, occupied) & targets);
  pawn_moves<Us>(p.pawns & own & free, enemy, empty, targets, sink);

  // A pinned piece may only move between its king and its pinner, taking the pinner, and only along the
  // pin: a pawn by its own rules, a slider of the pin's kind anywhere on it, knights and cross-moving
  // sliders not at all.
  for (uint32_t sq : squares(s.pinners)) {
    const Bitboard segment = t.between[ksq][sq] | square_bb(sq);
    const Bitboard piece = segment & own, allowed = segment & targets;
    const Bitboard sliders = (t.bishop_lines[ksq] & square_bb(sq)) ? p.diagonal : p.orthogonal;
    if (piece & p.pawns) pawn_moves<Us>(piece, enemy, empty, allowed, sink);
    else if (piece & sliders) sink.piece(lowest_square(piece), allowed);
  }

  if (p.ep_square != kNoSquare) {
    for (Bitboard b = t.pawn[Them][p.ep_square] & p.pawns & own; b; b &= b - 1) {
      const int from = lowest_square(b);
      if (en_passant_is_legal<Us>(p, from, enemy, occupied)) sink.single(encode_move(from, p.ep_square));
    }
  }

  if (s.checks) return;
  if (short_open && !(danger & C::short_path)) sink.single(encode_move(C::base + 4, C::base + 6));
  if (long_open && !(danger & C::long_path)) sink.single(encode_move(C::base + 4, C::base + 2));
}

template <class Sink> GSDK_HD void generate_legal(const Position& p, Sink& sink, const ZoneLines& lines = {}) {
  if (p.side == kWhite)
    generate_legal<kWhite>(p, sink, lines);
  else
    generate_legal<kBlack>(p, sink, lines);
}

// Counts moves without listing them.
struct CountingSink {
  uint32_t count = 0;
  GSDK_HD void piece(int, Bitboard targets) { count += popcount(targets); }
  // Pushes land on empty squares and captures on enemy ones, and a single and a double push never share a
  // square (the double needs the single's square of its file empty), so only the two captures can overlap:
  // four popcounts instead of seven, and promotions (4 moves a target) only when some pawn reaches last_rank.
  GSDK_HD void pawn_moves(Bitboard push, Bitboard two, Bitboard west, Bitboard east, Bitboard last_rank, int) {
    count += popcount(push | two | west) + popcount(east);
    const Bitboard promoting = (push | west) & last_rank, promoting_east = east & last_rank;
    if (promoting | promoting_east) count += 3 * (popcount(promoting) + popcount(promoting_east));
  }
  GSDK_HD void single(Move) { ++count; }
};

// Calls f(move) for every move; promotions in the order queen, rook, bishop, knight. Also gathers the
// squares the moves land on (one OR a piece).
template <class F> struct EachMove {
  F f;
  Bitboard landing = 0;
  GSDK_HD void piece(int from, Bitboard targets) {
    landing |= targets;
    for (; targets; targets &= targets - 1) f(encode_move(from, lowest_square(targets)));
  }
  GSDK_HD void pawns(Bitboard targets, int delta) {
    for (; targets; targets &= targets - 1) {
      const int to = lowest_square(targets);
      f(encode_move(to - delta, to));
    }
  }
  GSDK_HD void promotions(Bitboard targets, int delta) {
    for (; targets; targets &= targets - 1) {
      const int to = lowest_square(targets);
      for (uint32_t piece = kPromoteQueen; piece >= kPromoteKnight; --piece) f(encode_move(to - delta, to, piece));
    }
  }
  GSDK_HD void pawn_moves(Bitboard push, Bitboard two, Bitboard west, Bitboard east, Bitboard last_rank, int forward) {
    landing |= push | two | west | east;
    pawns(push & ~last_rank, forward);
    pawns(two, 2 * forward);
    pawns(west & ~last_rank, forward - 1);
    pawns(east & ~last_rank, forward + 1);
    promotions(push & last_rank, forward);
    promotions(west & last_rank, forward - 1);
    promotions(east & last_rank, forward + 1);
  }
  GSDK_HD void single(Move m) {
    landing |= square_bb(move_to(m));
    f(m);
  }
};

// Returns the squares the moves land on.
template <class F> GSDK_HD Bitboard for_each_legal_move(const Position& p, F f) {
  EachMove<F> sink{f};
  generate_legal(p, sink);
  return sink.landing;
}

GSDK_HD uint32_t count_legal_moves(const Position& p, const ZoneLines& lines = {}) {
  CountingSink sink;
  generate_legal(p, sink, lines);
  return sink.count;
}

CHESS_ISA_END
} // namespace chess
