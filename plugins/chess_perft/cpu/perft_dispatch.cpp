// perft_dispatch.cpp - picks the CPU perft build the processor can run.
#include <mutex>

#include "cpu/cpu_perft.hpp"
#include "rules/pext_attacks.hpp"

namespace chess::cpu {

bool uses_bmi2() {
  static const bool has = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  return has;
}

uint64_t perft(const Position& p, uint32_t depth) {
  if (!uses_bmi2()) return perft_portable(p, depth);
  static std::once_flag built;
  std::call_once(built, pext::build_tables);
  return perft_bmi2(p, depth);
}

} // namespace chess::cpu
