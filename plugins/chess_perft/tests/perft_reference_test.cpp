// perft_reference_test.cpp - the CPU move generator against the published perft tables: startpos to
// depth 7, Kiwipete to 6, and positions 3-6 to the depths where the counts reach about 10^9.
// Every other path (per-state table, GPU) is checked against this one. The lines through the replying
// king's zone, worked out once at the parent as the GPU leaf kernel does, count every child the same.
#include <gtest/gtest.h>

#include "reference_positions.hpp"
#include "rules/fen.hpp"
#include "cpu/cpu_perft.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

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

// For every position two plies deep from each reference position, and every move there: the child's count
// with the parent's king-zone lines for the replying side (enemy sliders off them not looked up) is the
// child's count without. Positions 4 and 5 bring checks, pins, promotions and open castling paths. A zone
// missing a square (e.g. one castling path) makes this fail.
TEST(Perft, KingZoneLinesOfTheParentCountEveryChildAsBefore) {
  uint64_t children = 0;
  const auto check_children = [&](const chess::Position& parent) {
    const chess::ZoneLines lines = chess::king_zone_lines(parent, parent.side ^ 1);
    const chess::Bitboard landing = chess::for_each_legal_move(parent, [](chess::Move) {});
    const chess::ZoneLines narrow = chess::king_zone_lines(parent, parent.side ^ 1, landing);
    chess::for_each_legal_move(parent, [&](chess::Move m) {
      chess::Position child = parent;
      chess::make_move(child, m);
      const uint32_t expected = chess::count_legal_moves(child);
      ASSERT_EQ(chess::count_legal_moves(child, lines), expected) << "move " << m;
      ASSERT_EQ(chess::count_legal_moves(child, narrow), expected) << "move " << m << ", zone from the landing squares";
      ++children;
    });
  };
  for (const auto& ref : reference_positions()) {
    const chess::Position root = chess::parse_fen(ref.fen);
    check_children(root);
    chess::for_each_legal_move(root, [&](chess::Move m) {
      chess::Position p = root;
      chess::make_move(p, m);
      check_children(p);
      chess::for_each_legal_move(p, [&](chess::Move r) {
        chess::Position q = p;
        chess::make_move(q, r);
        check_children(q);
      });
    });
  }
  // Bd1+ checks the king on e2 from next to it, and attacks f3 through the king: only the king's lines
  // reach d1 from the zone, so a zone that stops at the king would let it step to f3.
  check_children(chess::parse_fen("4k3/8/8/8/b7/8/4K3/8 b - - 0 1"));
  // exd3 e.p. takes the pawn beside the king, which may then step to d4, guarded by the knight on b5 (no
  // other square of the zone is a knight's jump from b5), which is pinned: no move of black lands on d4.
  check_children(chess::parse_fen("4k3/8/8/1n6/B2Pp3/4K3/8/8 b - d3 0 1"));
  EXPECT_GT(children, 250000u);
}

TEST(Perft, DepthZeroIsOneNode) { EXPECT_EQ(chess::cpu::perft(chess::parse_fen(chess::kStartFen), 0), 1u); }

} // namespace
