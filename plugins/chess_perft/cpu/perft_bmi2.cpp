// perft_bmi2.cpp - CPU perft built with BMI2 and POPCNT: PEXT slider lookups, hardware popcount.
#include "cpu/cpu_perft.hpp"
#include "rules/perft.hpp"

namespace chess::cpu {

uint64_t perft_bmi2(const Position& p, uint32_t depth) { return chess::perft(p, depth); }

} // namespace chess::cpu
