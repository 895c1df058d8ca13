// canonical_state_test.cpp - chess_perft's canonical positions for hashed perft (gsdk.perft_keys.v1,
// rules/canonical.hpp): the move clocks go to fixed values, an en-passant square stays only when a pawn of the side
// to move attacks it (a pinned one included: conservative), canonical positions count what the originals count,
// transposed move orders whose positions differ in their clocks meet in one canonical position, and the plugin's
// table gives the same bytes on the host (in place or not) and, with a GPU, on the device.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "chess_game.hpp"
#include "cpu/cpu_perft.hpp"
#include "gpu.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "linked_plugin.hpp"
#include "reference_positions.hpp"
#include "rules/canonical.hpp"
#include "rules/fen.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace chess {
namespace {

Position canonical(Position p) {
  canonicalize(p);
  return p;
}

bool same_bytes(const Position& a, const Position& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Plays UCI moves from the start position.
Position after(const std::vector<std::string>& moves) {
  Position p = parse_fen(kStartFen);
  for (const std::string& uci : moves) {
    bool played = false;
    for_each_legal_move(p, [&](Move m) {
      if (!played && move_to_uci(m) == uci) {
        make_move(p, m);
        played = true;
      }
    });
    EXPECT_TRUE(played) << uci << " is not legal in " << to_fen(p);
  }
  return p;
}

void expect_same_perft(const Position& p, const Position& c, uint32_t deepest) {
  for (uint32_t depth = 1; depth <= deepest; ++depth)
    EXPECT_EQ(cpu::perft(c, depth), cpu::perft(p, depth)) << to_fen(p) << " depth " << depth;
}

int square(const char* name) {
  return (name[1] - '1') * 8 + (name[0] - 'a');
}

TEST(ChessCanonical, ClearsTheMoveClocksAndKeepsTheRest) {
  const Position p = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 37 91");
  const Position c = canonical(p);
  EXPECT_EQ(c.halfmove, 0);
  EXPECT_EQ(c.fullmove, 1);
  Position expected = p;
  expected.halfmove = 0;
  expected.fullmove = 1;
  EXPECT_TRUE(same_bytes(c, expected)) << to_fen(c);
  EXPECT_TRUE(same_bytes(canonical(c), c)) << "not idempotent";
  EXPECT_TRUE(same_bytes(parse_fen(to_fen(c)), c)) << "the canonical position's FEN does not read back: " << to_fen(c);
}

TEST(ChessCanonical, KeepsAnEnPassantSquareAPawnCanTake) {
  // After 1.e4 d5 2.e5 f5 white's e5 pawn attacks f6; after ...d4 and e2-e4 black's d4 pawn attacks e3.
  for (const char* fen : {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                          "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"}) {
    const Position p = parse_fen(fen);
    ASSERT_NE(p.ep_square, kNoSquare) << fen;
    EXPECT_EQ(canonical(p).ep_square, p.ep_square) << fen;
  }
  // White's b5 pawn attacks c6 but is pinned against its king by the rook on h5: the capture is illegal, the square
  // is kept all the same (conservative), and the counts are the position's.
  const Position pinned = parse_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
  ASSERT_EQ(pinned.ep_square, square("c6"));
  EXPECT_EQ(canonical(pinned).ep_square, square("c6"));
  expect_same_perft(pinned, canonical(pinned), 4);
}

TEST(ChessCanonical, ClearsAnEnPassantSquareNoPawnCanTake) {
  // After 1.e4 no black pawn attacks e3. make_move and the parser never record such a square; a position that
  // carries one anyway (written by other code, or by a FEN writer that always sets it) loses it.
  Position p = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  p.ep_square = static_cast<uint8_t>(square("e3"));
  const Position c = canonical(p);
  EXPECT_EQ(c.ep_square, kNoSquare);
  EXPECT_TRUE(same_bytes(c, canonical(after({"e2e4"}))));
  expect_same_perft(p, c, 4);
  // A black pawn on c4 stands beside the b- and d-files, not e: still no capture on e3.
  Position beside = parse_fen("rnbqkbnr/pp1ppppp/8/8/2p1P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
  beside.ep_square = static_cast<uint8_t>(square("e3"));
  EXPECT_EQ(canonical(beside).ep_square, kNoSquare);
  expect_same_perft(beside, canonical(beside), 3);
}

TEST(ChessCanonical, CountsWhatTheReferencePositionsCount) {
  for (const auto& ref : test::reference_positions()) {
    Position p = parse_fen(ref.fen);
    p.halfmove = 99; // the clocks of a late position: nothing in perft reads them
    p.fullmove = 250;
    const Position c = canonical(p);
    for (uint32_t depth = 1; depth <= 3; ++depth)
      EXPECT_EQ(cpu::perft(c, depth), ref.leaves[depth - 1]) << ref.name << " depth " << depth;
  }
}

TEST(ChessCanonical, TransposedMoveOrdersMeetInOneCanonicalPosition) {
  // The same position with another halfmove clock: the pawn moves come last in one order, first in the other.
  const Position a = after({"e2e4", "e7e5", "g1f3", "b8c6"});
  const Position b = after({"g1f3", "b8c6", "e2e4", "e7e5"});
  EXPECT_FALSE(same_bytes(a, b)) << "halfmove " << int{a.halfmove} << " and " << int{b.halfmove};
  EXPECT_TRUE(same_bytes(canonical(a), canonical(b))) << to_fen(canonical(a)) << " vs " << to_fen(canonical(b));
  // The same position with another move number: the knights went out and back first.
  const Position c = after({"g1f3", "g8f6", "f3g1", "f6g8", "d2d4"});
  const Position d = after({"d2d4"});
  EXPECT_FALSE(same_bytes(c, d)) << "fullmove " << c.fullmove << " and " << d.fullmove;
  EXPECT_TRUE(same_bytes(canonical(c), canonical(d)));
  // Positions that differ in what perft counts stay apart: an en-passant capture only one of them allows.
  const Position ep = after({"e2e4", "a7a6", "e4e5", "d7d5"});
  Position no_ep = ep;
  no_ep.ep_square = kNoSquare;
  EXPECT_FALSE(same_bytes(canonical(ep), canonical(no_ep)));
  EXPECT_NE(cpu::perft(ep, 1), cpu::perft(no_ep, 1));
}

// Random positions from the reference positions, with clocks anywhere in their range.
std::vector<Position> random_positions(size_t count) {
  std::mt19937_64 random(11);
  const auto& refs = test::reference_positions();
  std::vector<Position> out;
  while (out.size() < count) {
    Position p = parse_fen(refs[out.size() % refs.size()].fen);
    for (int ply = static_cast<int>(random() % 40); ply > 0; --ply) {
      std::vector<Move> moves;
      for_each_legal_move(p, [&](Move m) { moves.push_back(m); });
      if (moves.empty()) break;
      make_move(p, moves[random() % moves.size()]);
    }
    p.halfmove = static_cast<uint8_t>(random() % 151);
    p.fullmove = static_cast<uint16_t>(1 + random() % 500);
    out.push_back(p);
  }
  return out;
}

gsdk::core::GameInstance make_instance() {
  const gsdk_param_value kernel{"gpu_leaf_kernel", GSDK_PARAM_STRING, 0, 0, 0.0, "thread"};
  return gsdk::core::GameInstance(gsdk::test::linked_plugin_tables("chess_perft"), {kernel});
}

TEST(ChessCanonical, ThePluginsTableGivesTheRulesBytesInPlaceOrNot) {
  const gsdk::core::GameInstance game = make_instance();
  ASSERT_TRUE(game.has_canonical_states());
  const std::vector<Position> positions = random_positions(300);
  std::vector<Position> out(positions.size());
  const auto* bytes = reinterpret_cast<const unsigned char*>(positions.data());
  game.canonical_states(bytes, static_cast<uint32_t>(positions.size()), reinterpret_cast<unsigned char*>(out.data()));
  std::vector<Position> in_place = positions;
  auto* place = reinterpret_cast<unsigned char*>(in_place.data());
  game.canonical_states(place, static_cast<uint32_t>(in_place.size()), place);
  for (size_t k = 0; k < positions.size(); ++k) {
    EXPECT_TRUE(same_bytes(out[k], canonical(positions[k]))) << to_fen(positions[k]);
    EXPECT_TRUE(same_bytes(in_place[k], out[k])) << to_fen(positions[k]);
  }
}

TEST(ChessCanonical, TheDeviceWritesTheHostsBytes) {
  GSDK_REQUIRE_GPU();
  const gsdk::core::GameInstance game = make_instance();
  const gsdk_perft_keys& keys = *game.tables().perft_keys;
  ASSERT_NE(keys.cuda_canonical, nullptr) << "a CUDA build's chess_perft has the CUDA perft kernels";
  const std::vector<Position> positions = random_positions(1000);
  const uint64_t bytes = positions.size() * sizeof(Position);
  const auto count = static_cast<uint32_t>(positions.size());
  const int device = gsdk::test::gpus().front().ordinal;
  gsdk::core::DeviceArena arena(device, 2 * bytes + 1024);
  gsdk::core::CudaStream stream(device);
  void* in = arena.allocate(bytes);
  void* out = arena.allocate(bytes);
  stream.copy_to_device(in, positions.data(), bytes);
  char error[256] = {};
  ASSERT_EQ(keys.cuda_canonical(game.handle(), in, count, out, stream.handle(), error, sizeof error), GSDK_OK) << error;
  ASSERT_EQ(keys.cuda_canonical(game.handle(), in, count, in, stream.handle(), error, sizeof error), GSDK_OK) << error;
  std::vector<Position> found(positions.size()), found_in_place(positions.size());
  stream.copy_to_host(found.data(), out, bytes);
  stream.copy_to_host(found_in_place.data(), in, bytes);
  stream.synchronize();
  for (size_t k = 0; k < positions.size(); ++k) {
    EXPECT_TRUE(same_bytes(found[k], canonical(positions[k]))) << to_fen(positions[k]);
    EXPECT_TRUE(same_bytes(found_in_place[k], canonical(positions[k]))) << to_fen(positions[k]);
  }
}

} // namespace
} // namespace chess
