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

// 32 bytes, aligned, so the GPU reads the mask and the magic in one 16-byte load.
struct alignas(16) Entry {
  Bitboard mask;   // relevant occupancy
  Bitboard magic;  // (occupied & mask) * magic >> shift is a collision-free index
  uint32_t offset; // of this square's slice in Tables::attacks
  uint32_t shift;  // at least 52: an index has at most 12 bits
  uint64_t unused;
};

// The index of relevant occupancy bits in a square's slice, ((relevant * magic) >> shift) with shift >= 52:
// only the product's high word matters, three 32-bit multiplies (the GPU has no 64-bit multiply).
GSDK_HD constexpr uint32_t slice_index(Bitboard relevant, Bitboard magic, uint32_t shift) {
  const auto low = static_cast<uint32_t>(relevant), high = static_cast<uint32_t>(relevant >> 32);
  const auto magic_low = static_cast<uint32_t>(magic), magic_high = static_cast<uint32_t>(magic >> 32);
  const uint32_t top = static_cast<uint32_t>((uint64_t{low} * magic_low) >> 32) + low * magic_high + high * magic_low;
  return top >> (shift & 31);
}

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

// Index arithmetic stays 32-bit: a 64-bit pointer offset costs extra instructions per lookup.
__device__ __forceinline__ Bitboard device_lookup(const Entry& e, Bitboard occupied) {
  const ulonglong2 mask_magic = __ldg(reinterpret_cast<const ulonglong2*>(&e));
  const uint2 place = __ldg(reinterpret_cast<const uint2*>(&e.offset));
  const uint32_t index = place.x + slice_index(occupied & mask_magic.x, mask_magic.y, place.y);
  return __ldg(reinterpret_cast<const unsigned long long*>(kDeviceAttacks) + index);
}
#endif

} // namespace chess::magic
