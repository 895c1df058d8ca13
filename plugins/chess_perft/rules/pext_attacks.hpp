// pext_attacks.hpp - slider attacks by one PEXT-indexed table lookup (host, BMI2 builds only).
//
// For each square the relevant occupancy (the rays without their edge squares) is compressed by PEXT
// into an index into that square's slice of one 107,648-entry table. The tables are built once, by
// build_pext_tables(), before the first lookup; building needs no BMI2 itself.
#pragma once

#include <cstdint>

#include "rules/position.hpp"

namespace chess::pext {

struct Slider {
  Bitboard mask[64];
  uint32_t offset[64];
};

struct Tables {
  Slider rook, bishop;
  Bitboard attacks[102400 + 5248];
};

extern Tables tables;

// Fills `tables`; call once (the CPU perft dispatcher does, under std::call_once).
void build_tables();

} // namespace chess::pext
