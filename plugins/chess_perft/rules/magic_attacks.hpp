// magic_attacks.hpp - slider attacks by multiply, shift and one table load ("fancy" magic bitboards),
// the GPU's substitute for PEXT.
//
// On the H100 the leaf kernel is bound by the integer/logic (ALU) pipe; computing a slider's attacks
// from its two lines costs ~30 ALU instructions, a magic lookup a 64-bit multiply (FMA pipe) and a
// load (LSU), leaving the ALU to the rest. The tables (107,648 attack sets, 841 KiB) are filled on the
// host from embedded magic numbers (cuda/magic_tables.cpp) and copied to each device before its first
// kernel.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "rules/position.hpp"

namespace chess::magic {

struct Entry {
  Bitboard mask;   // relevant occupancy
  Bitboard magic;  // (occupied & mask) * magic >> shift is a collision-free index
  uint32_t offset; // of this square's slice in Tables::attacks
  uint32_t shift;
};

inline constexpr uint32_t kAttackEntries = 102400 + 5248; // sum over squares of 2^popcount(mask)

struct Tables {
  Entry rook[64];
  Entry bishop[64];
  Bitboard attacks[kAttackEntries];
};

// The tables, filled once (thread-safe) on first use.
const Tables& host_tables();

#if defined(__CUDACC__)
// Device copies, filled by the plugin's CUDA code (one translation unit) before its first launch.
static __device__ Entry kDeviceRook[64];
static __device__ Entry kDeviceBishop[64];
static __device__ Bitboard kDeviceAttacks[kAttackEntries];

__device__ __forceinline__ Bitboard device_lookup(const Entry& e, Bitboard occupied) {
  const Bitboard mask = __ldg(reinterpret_cast<const unsigned long long*>(&e.mask));
  const Bitboard magic = __ldg(reinterpret_cast<const unsigned long long*>(&e.magic));
  const uint2 place = __ldg(reinterpret_cast<const uint2*>(&e.offset));
  return __ldg(reinterpret_cast<const unsigned long long*>(kDeviceAttacks) + place.x +
               static_cast<uint32_t>(((occupied & mask) * magic) >> place.y));
}
#endif

} // namespace chess::magic
