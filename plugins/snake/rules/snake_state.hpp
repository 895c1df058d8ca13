// snake_state.hpp - a snake as a gsdk state blob: the blocked-vertex bitset (room for dimension 13),
// the moves so far (4 bits each, so the state text can list them), head, length, dimensions used.
// Every byte is a function of the move list, so equal snakes are equal blobs.
#pragma once

#include <cstdint>

#include "rules.hpp"

namespace snake {

inline constexpr uint32_t kMoveBytes = (kMaxLength + 1) / 2;

struct State {
  uint64_t blocked[kMaxVertices / 64];
  uint8_t moves[(kMoveBytes + 7) / 8 * 8]; // move i in the low (i even) or high (i odd) nibble of byte i / 2
  uint16_t head;
  uint16_t length;
  uint16_t used_dimensions;
  uint8_t dimension;
  uint8_t reserved; // always 0
};

GSDK_HD void start_state(State& s, uint32_t dimension) {
  for (auto& w : s.blocked) w = 0;
  for (auto& m : s.moves) m = 0;
  s.head = 0;
  s.length = 0;
  s.used_dimensions = 0;
  s.dimension = static_cast<uint8_t>(dimension);
  s.reserved = 0;
}

GSDK_HD Walk walk_of(const State& s) {
  return Walk{s.head, s.used_dimensions, s.length};
}

GSDK_HD uint32_t move_at(const State& s, uint32_t i) {
  return (s.moves[i / 2] >> (4 * (i % 2))) & 0xfu;
}

GSDK_HD uint32_t legal_dimensions(const Rules& rules, const State& s) {
  return legal_dimensions(rules, ConstWordBits{s.blocked}, walk_of(s));
}

// Plays a legal move k and records it.
GSDK_HD void play(const Rules& rules, State& s, uint32_t k) {
  Walk walk = walk_of(s);
  advance(rules, WordBits{s.blocked}, walk, k);
  s.moves[s.length / 2] |= static_cast<uint8_t>(k << (4 * (s.length % 2)));
  s.head = static_cast<uint16_t>(walk.head);
  s.length = static_cast<uint16_t>(walk.length);
  s.used_dimensions = static_cast<uint16_t>(walk.used_dimensions);
}

} // namespace snake
