// fen_test.cpp - FEN parsing and printing: round trips of the reference positions, and every kind of
// bad FEN refused with a message naming the field and what was expected.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "reference_positions.hpp"
#include "rules/fen.hpp"

namespace {

std::string refusal(const std::string& fen) {
  try {
    chess::parse_fen(fen);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << fen;
  return "";
}

TEST(Fen, ReferencePositionsRoundTrip) {
  for (const auto& ref : chess::test::reference_positions()) {
    const chess::Position p = chess::parse_fen(ref.fen);
    const std::string printed = chess::to_fen(p);
    const chess::Position again = chess::parse_fen(printed);
    EXPECT_EQ(std::memcmp(&p, &again, sizeof p), 0) << ref.name << ": " << printed;
  }
  EXPECT_EQ(chess::to_fen(chess::parse_fen(chess::kStartFen)), chess::kStartFen);
  EXPECT_EQ(chess::to_fen(chess::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
}

TEST(Fen, StartPositionHasTheRightPieces) {
  const chess::Position p = chess::parse_fen(chess::kStartFen);
  EXPECT_EQ(p.white, 0xffffull);
  EXPECT_EQ(p.pawns, 0x00ff00000000ff00ull);
  EXPECT_EQ(p.knights, 0x4200000000000042ull);
  EXPECT_EQ(p.diagonal, 0x2c0000000000002cull);   // bishops c,f and queen d
  EXPECT_EQ(p.orthogonal, 0x8900000000000089ull); // rooks a,h and queen d
  EXPECT_EQ(p.king[chess::kWhite], 4);
  EXPECT_EQ(p.king[chess::kBlack], 60);
  EXPECT_EQ(p.castling, 15);
  EXPECT_EQ(p.ep_square, chess::kNoSquare);
  EXPECT_EQ(p.fullmove, 1);
}

TEST(Fen, EnPassantSquareIsKeptOnlyWhenACaptureIsPossible) {
  const chess::Position possible = chess::parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  EXPECT_EQ(possible.ep_square, 43);
  const chess::Position idle = chess::parse_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2");
  EXPECT_EQ(idle.ep_square, chess::kNoSquare);
}

struct BadFen {
  const char* fen;
  const char* expected; // a piece of the message
};

class FenRefusal : public ::testing::TestWithParam<BadFen> {};

TEST_P(FenRefusal, NamesTheFieldAndTheProblem) {
  const std::string message = refusal(GetParam().fen);
  EXPECT_NE(message.find(GetParam().expected), std::string::npos) << "message: " << message;
  EXPECT_EQ(message.rfind("invalid FEN: ", 0), 0u) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FenRefusal,
    ::testing::Values(
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "3 fields, expected 6"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "7 fields"}, BadFen{"", "0 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "field 1 (piece placement): expected 8 ranks"},
        BadFen{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares"},
        BadFen{"rnbqkbnr/pppppppp/81/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has more than 8 squares"},
        BadFen{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece letter '9'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"},
        BadFen{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings, expected exactly 1"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/3K4/PPPPPPPP/RNBQKBNR w kq - 0 1", "white has 2 kings"},
        BadFen{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "pawn on h8"},
        BadFen{"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has more than 8 pawns"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
               "field 2 (side to move): 'x', expected 'w' or 'b'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "field 3 (castling): unexpected 'x'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", "'K' appears twice"},
        BadFen{"rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "right 'k' but there is no rook on h8"},
        BadFen{"rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "right 'k' but the king is not on e8"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
               "field 4 (en passant): 'e9' is not a square"},
        BadFen{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "e3 is not on rank 6"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "no black pawn stands on e5"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "field 5 (halfmove clock): 'x'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 151 1", "expected an integer in 0..150"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "field 6 (fullmove number): '0'"},
        BadFen{"4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "side not to move (white) is in check"},
        BadFen{"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "side not to move (black) is in check"},
        BadFen{"4k3/8/8/8/1b6/5n2/8/r3K3 w - - 0 1",
               "position '4k3/8/8/8/1b6/5n2/8/r3K3 w - - 0 1': the white king on e1 is in check from 3 pieces (a1, f3, "
               "b4); a single move gives check with at most two pieces"},
        BadFen{"4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
               "check from 2 pieces (d3, f3); a double check needs a slider whose line the moving piece opened"},
        BadFen{"4k3/8/8/3p1p2/4K3/8/8/8 w - - 0 1", "white king on e4 is in check from 2 pieces (d5, f5)"},
        BadFen{"4k3/8/8/8/8/8/8/r3K2r w - - 0 1", "check from 2 pieces (a1, h1) along one line"},
        BadFen{"4k3/8/8/3p4/2K5/8/8/2r5 w - d6 0 2",
               "check from 2 pieces (c1, d5), but the last move was a double pawn push (en passant d6)"},
        BadFen{"4k2r/8/8/3p4/8/8/8/7K w - d6 0 2",
               "check from 1 piece (h8), but the last move was a double pawn push (en passant d6) and the king was "
               "already in check before it"}));

// Checks one legal move can give are kept: a direct check with a discovered one (rook and bishop, rook
// and knight), a discovered check by a double pawn push, the pushed pawn's own check.
TEST(Fen, ChecksOneMoveCanGiveAreAccepted) {
  for (const char* fen :
       {"4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1", "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", "4k3/r6K/8/3p4/8/8/8/8 w - d6 0 2",
        "4k3/8/8/3p4/4K3/8/8/8 w - d6 0 2", "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1"})
    EXPECT_NO_THROW(chess::parse_fen(fen)) << fen;
}

} // namespace
