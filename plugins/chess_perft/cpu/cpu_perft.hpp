// cpu_perft.hpp - the CPU perft entry points: a BMI2/POPCNT build (PEXT slider lookups) chosen at run
// time when the processor has them, else the portable build of the same rules.
#pragma once

#include <cstdint>

#include "rules/position.hpp"

namespace chess::cpu {

uint64_t perft_portable(const Position& p, uint32_t depth);
uint64_t perft_bmi2(const Position& p, uint32_t depth); // only after build_pext_tables, on BMI2 CPUs

// The fastest build this processor runs; builds the PEXT tables on first use.
uint64_t perft(const Position& p, uint32_t depth);
bool uses_bmi2();

} // namespace chess::cpu
