// perft_portable.cpp - CPU perft built for any x86-64 (ray-scan slider attacks).
#include "cpu/cpu_perft.hpp"
#include "rules/perft.hpp"

namespace chess::cpu {

uint64_t perft_portable(const Position& p, uint32_t depth) { return chess::perft(p, depth); }

} // namespace chess::cpu
