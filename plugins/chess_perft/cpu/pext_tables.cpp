// pext_tables.cpp - builds the PEXT slider tables by walking every occupancy subset in PEXT order.
#include "rules/pext_attacks.hpp"

#include "rules/attack_tables.hpp"

namespace chess::pext {

Tables tables;

namespace {

uint32_t fill(Slider& slider, bool diagonal, uint32_t offset) {
  for (int sq = 0; sq < 64; ++sq) {
    const Bitboard mask = relevant_occupancy(sq, diagonal);
    slider.mask[sq] = mask;
    slider.offset[sq] = offset;
    for_each_subset(mask, [&](Bitboard subset) { tables.attacks[offset++] = slider_attacks_by_rays(sq, diagonal, subset); });
  }
  return offset;
}

} // namespace

void build_tables() { fill(tables.bishop, true, fill(tables.rook, false, 0)); }

} // namespace chess::pext
