// perft_reference_test.cpp - the CPU move generator against the published perft tables: startpos to
// depth 7, Kiwipete to 6, and positions 3-6 to the depths where the counts reach about 10^9.
// Every other path (per-state table, GPU) is checked against this one.
#include <gtest/gtest.h>

#include "reference_positions.hpp"
#include "rules/fen.hpp"
#include "cpu/cpu_perft.hpp"

namespace {

using chess::test::reference_positions;

// Deepest depth run here per position: enough to meet every special move many times over while the
// whole suite stays near a minute on two cores.
uint32_t cpu_depth(const std::string& name) {
  if (name == "start") return 7;
  if (name == "kiwipete") return 6;
  if (name == "position3") return 8;
  if (name == "position6") return 5;
  return static_cast<uint32_t>(name == "position5" ? 5 : 6);
}

class PerftReference : public ::testing::TestWithParam<size_t> {};

TEST_P(PerftReference, MatchesThePublishedTable) {
  const auto& ref = reference_positions()[GetParam()];
  const chess::Position p = chess::parse_fen(ref.fen);
  const uint32_t deepest = cpu_depth(ref.name);
  for (uint32_t depth = 1; depth <= deepest; ++depth)
    EXPECT_EQ(chess::cpu::perft(p, depth), ref.leaves[depth - 1]) << ref.name << " depth " << depth;
}

INSTANTIATE_TEST_SUITE_P(Positions, PerftReference, ::testing::Range<size_t>(0, reference_positions().size()),
                         [](const auto& info) { return std::string(reference_positions()[info.param].name); });

// The portable build (ray scans, no PEXT) must agree too: it is what non-BMI2 processors run.
TEST(Perft, PortableBuildMatchesToo) {
  for (const auto& ref : reference_positions()) {
    const chess::Position p = chess::parse_fen(ref.fen);
    for (uint32_t depth = 1; depth <= 4; ++depth)
      EXPECT_EQ(chess::cpu::perft_portable(p, depth), ref.leaves[depth - 1]) << ref.name << " depth " << depth;
  }
}

TEST(Perft, DepthZeroIsOneNode) { EXPECT_EQ(chess::cpu::perft(chess::parse_fen(chess::kStartFen), 0), 1u); }

} // namespace
