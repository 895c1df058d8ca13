// find_magics.cpp - finds the fancy magic numbers embedded in cuda/magic_tables.cpp, by a seeded random
// search for sparse 64-bit numbers that map every relevant occupancy of a square to a slot without
// destructive collisions. Deterministic: prints the same numbers every run.
// Build: tools/CMakeLists.txt (target chess_find_magics); run it and paste its output.
#include <cstdio>
#include <vector>

#include "rules/attack_tables.hpp"

namespace {

struct Random {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  uint64_t next() { // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

uint64_t find(int sq, bool diagonal, Random& random) {
  const chess::Bitboard mask = chess::relevant_occupancy(sq, diagonal);
  const int bits = chess::popcount(mask);
  const uint32_t size = 1u << bits;
  std::vector<chess::Bitboard> occupancy, reference, table(size);
  std::vector<uint32_t> stamp(size, 0);
  chess::for_each_subset(mask, [&](chess::Bitboard subset) {
    occupancy.push_back(subset);
    reference.push_back(chess::slider_attacks_by_rays(sq, diagonal, subset));
  });
  for (uint32_t attempt = 1;; ++attempt) {
    const uint64_t magic = random.sparse();
    if (chess::popcount((mask * magic) >> 56) < 6) continue;
    bool ok = true;
    for (uint32_t i = 0; i < size && ok; ++i) {
      const auto index = static_cast<uint32_t>((occupancy[i] * magic) >> (64 - bits));
      if (stamp[index] != attempt) {
        stamp[index] = attempt;
        table[index] = reference[i];
      } else {
        ok = table[index] == reference[i];
      }
    }
    if (ok) return magic;
  }
}

} // namespace

int main() {
  Random random;
  for (const bool diagonal : {false, true}) {
    std::printf("constexpr uint64_t k%sMagics[64] = {\n", diagonal ? "Bishop" : "Rook");
    for (int sq = 0; sq < 64; ++sq)
      std::printf("%s0x%016llxull,%s", sq % 4 == 0 ? "    " : " ", static_cast<unsigned long long>(find(sq, diagonal, random)),
                  sq % 4 == 3 ? "\n" : "");
    std::printf("};\n");
  }
}
