// test_tree_rules.hpp - the rules of test_tree, compiled alike for the CPU and CUDA: a synthetic
// one-player move tree whose branching varies from state to state (1 to 7 moves) and where about one
// state in eleven is terminal, so the GPU perft engine meets uneven levels and dead ends.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace test_tree {

struct State {
  uint64_t hash;
  uint32_t ply;
  uint32_t reserved; // always 0, so equal states have equal bytes
};

inline constexpr uint32_t kMaxMoves = 7;

// SplitMix64's finalizer: children's hashes look independent of their parents'.
GSDK_HD uint64_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Moves 0 .. count - 1; none at max_ply or when the hash is a multiple of 11.
GSDK_HD uint32_t move_count(const State& s, uint32_t max_ply) {
  if (s.ply >= max_ply || s.hash % 11 == 0) return 0;
  return static_cast<uint32_t>(s.hash % kMaxMoves) + 1;
}

GSDK_HD State child(const State& s, uint32_t move) {
  return State{mix(s.hash ^ (uint64_t{move} + 1) * 0x9e3779b97f4a7c15ull), s.ply + 1, 0};
}

// gsdk.perft_keys.v1's canonical state: `reserved` never changes a subtree, so it is set to 0 (states reached by play
// already have 0 there). `keys_fault` breaks it on purpose, so that the conformance checks can be seen to fail: an
// idempotent canonical state of other counts, one that is not idempotent, a refusal, and a device that writes other
// bytes than the host.
inline constexpr int64_t kKeysFaultWrongPerft = 1, kKeysFaultNotIdempotent = 2, kKeysFaultFails = 3,
                         kKeysFaultDeviceDiffers = 4;

GSDK_HD void canonicalize(State& s, int64_t keys_fault) {
  if (keys_fault == kKeysFaultWrongPerft) s.hash &= ~uint64_t{1};
  s.reserved = keys_fault == kKeysFaultNotIdempotent ? s.reserved ^ 1u : 0u;
}

// gsdk.evaluation.v1, for the beam search's tests: a state's moves first, then bits of its hash, so that values tie
// often (the tie-break is tested) and the best-valued child is not always on the longest path (so a narrow beam can
// miss the optimum). Below kEvaluationScale.
inline constexpr int32_t kEvaluationScale = 1 << 16;

GSDK_HD int32_t tree_value(const State& s, uint32_t max_ply) {
  return static_cast<int32_t>(move_count(s, max_ply) * 1024 + (s.hash >> 61) * 100);
}

// The CUDA leaf kernel counts at most this many plies.
inline constexpr uint32_t kLeafPlies = 2;

// perft(s, plies) for plies 1 or 2.
GSDK_HD uint32_t leaf_count(const State& s, uint32_t plies, uint32_t max_ply) {
  const uint32_t n = move_count(s, max_ply);
  if (plies == 1) return n;
  uint32_t leaves = 0;
  for (uint32_t m = 0; m < n; ++m) leaves += move_count(child(s, m), max_ply);
  return leaves;
}

} // namespace test_tree
