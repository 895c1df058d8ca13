// pext_tables.cpp - builds the PEXT slider tables by walking every occupancy subset in PEXT order.
#include "rules/pext_attacks.hpp"

#include "rules/attack_tables.hpp"

namespace chess::pext {

Tables tables;

namespace {

// Relevant occupancy: the rays from sq without the board edge they run into (a piece on the edge
// never hides anything behind it).
Bitboard relevant_mask(int sq, const int (&directions)[4]) {
  const AttackTables& t = chess::tables();
  Bitboard mask = 0;
  for (const int d : directions) {
    Bitboard edge = 0;
    if (d == kNorth || d == kNorthEast || d == kNorthWest) edge |= kRank8;
    if (d == kSouth || d == kSouthEast || d == kSouthWest) edge |= kRank1;
    if (d == kEast || d == kNorthEast || d == kSouthEast) edge |= kFileH;
    if (d == kWest || d == kNorthWest || d == kSouthWest) edge |= kFileA;
    mask |= t.ray[d][sq] & ~edge;
  }
  return mask;
}

uint32_t fill(Slider& slider, const int (&directions)[4], uint32_t offset) {
  for (int sq = 0; sq < 64; ++sq) {
    const Bitboard mask = relevant_mask(sq, directions);
    slider.mask[sq] = mask;
    slider.offset[sq] = offset;
    // Carry-rippler enumeration visits the subsets of mask in increasing PEXT index order.
    Bitboard subset = 0;
    do {
      Bitboard attacks = 0;
      for (const int d : directions) attacks |= ray_attacks(sq, d, subset);
      tables.attacks[offset++] = attacks;
      subset = (subset - mask) & mask;
    } while (subset);
  }
  return offset;
}

} // namespace

void build_tables() {
  constexpr int rook_directions[4] = {kNorth, kEast, kSouth, kWest};
  constexpr int bishop_directions[4] = {kNorthEast, kNorthWest, kSouthEast, kSouthWest};
  const uint32_t after_rooks = fill(tables.rook, rook_directions, 0);
  fill(tables.bishop, bishop_directions, after_rooks);
}

} // namespace chess::pext
