// canonical_state_test.cpp - othello's canonical positions for hashed perft (gsdk.perft_keys.v1,
// rules/canonical.hpp): the 16 images of a position (8 board symmetries, either colour to move) share one canonical
// form, which is one of those images and its own canonical form; it counts what the original counts in every
// convention; an opening's symmetric continuations meet in it; and the plugin's table gives the rules' bytes on the
// host (in place or not) and, with a GPU, on the device.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cpu/perft_cpu.hpp"
#include "gpu.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "othello_test_support.hpp"
#include "rules/board_symmetry.hpp"
#include "rules/board_text.hpp"
#include "rules/canonical.hpp"

namespace othello {
namespace {

Position canonical(Position p) {
  canonicalize(p);
  return p;
}

bool same_bytes(const Position& a, const Position& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Positions of random games, 4 to 40 plies from the start, either side to move.
std::vector<Position> random_positions(int count) {
  std::mt19937_64 random(17);
  std::vector<Position> found;
  while (static_cast<int>(found.size()) < count) {
    Position p = start_position();
    const uint32_t plies = 4 + static_cast<uint32_t>(random() % 37);
    for (uint32_t ply = 0; ply < plies && !game_over(p); ++ply) {
      const Bitboard moves = legal_moves(p);
      if (!moves)
        pass(p);
      else
        play(p, nth_square(moves, static_cast<uint32_t>(random() % gsdk::bits::popcount64(moves))));
    }
    found.push_back(p);
  }
  return found;
}

// The 8 board images of p, each with either side to move.
std::vector<Position> images(const Position& p) {
  const auto own = pulled_back_images(p.own);
  const auto opponent = pulled_back_images(p.opponent);
  std::vector<Position> all;
  for (uint32_t g = 0; g < 8; ++g)
    for (uint32_t side : {kBlack, kWhite}) all.push_back(Position{own[g], opponent[g], side, 0});
  return all;
}

TEST(OthelloCanonical, EveryImageOfAPositionHasOneCanonicalFormAmongThem) {
  for (const Position& p : random_positions(300)) {
    const Position c = canonical(p);
    bool among_images = false;
    for (const Position& image : images(p)) {
      EXPECT_TRUE(same_bytes(canonical(image), c)) << to_text(p);
      among_images = among_images || (image.own == c.own && image.opponent == c.opponent);
    }
    EXPECT_TRUE(among_images) << to_text(p);
    EXPECT_TRUE(same_bytes(canonical(c), c)) << to_text(p);
    EXPECT_EQ(c.side, kBlack);
    EXPECT_EQ(c.reserved, 0u);
  }
}

TEST(OthelloCanonical, AnAsymmetricPositionIsMovedToASmallerImage) {
  // After f5 (black's first move), the four first moves are one position up to symmetry; not all of them can be the
  // smallest, so canonicalize must change some.
  const Position start = start_position();
  std::vector<Position> children;
  for (Bitboard rest = legal_moves(start); rest; rest &= rest - 1) {
    Position child = start;
    play(child, lowest_square(rest));
    children.push_back(child);
  }
  ASSERT_EQ(children.size(), 4u);
  uint32_t changed = 0;
  for (const Position& child : children) {
    EXPECT_TRUE(same_bytes(canonical(child), canonical(children.front())));
    changed += same_bytes(canonical(child), child) ? 0 : 1;
  }
  EXPECT_GE(changed, 3u);
}

TEST(OthelloCanonical, CanonicalPositionsCountWhatTheOriginalsCountInEveryConvention) {
  for (const Convention c : {Convention::standard, Convention::finished_not_leaf, Convention::free_pass}) {
    for (Position p : random_positions(40)) {
      settle(p, c);
      const Position image = canonical(p);
      for (uint32_t depth = 1; depth <= 4; ++depth)
        EXPECT_EQ(cpu::perft_portable(image, depth, c), cpu::perft_portable(p, depth, c))
            << to_text(p) << " depth " << depth << " convention " << static_cast<uint32_t>(c);
    }
  }
}

TEST(OthelloCanonical, ThePluginsTableGivesTheRulesBytesInPlaceOrNot) {
  const auto game = test::make_game();
  ASSERT_TRUE(game->has_canonical_states());
  const std::vector<Position> positions = random_positions(300);
  std::vector<Position> out(positions.size());
  const auto* bytes = reinterpret_cast<const unsigned char*>(positions.data());
  game->canonical_states(bytes, static_cast<uint32_t>(positions.size()), reinterpret_cast<unsigned char*>(out.data()));
  std::vector<Position> in_place = positions;
  auto* place = reinterpret_cast<unsigned char*>(in_place.data());
  game->canonical_states(place, static_cast<uint32_t>(in_place.size()), place);
  for (size_t k = 0; k < positions.size(); ++k) {
    EXPECT_TRUE(same_bytes(out[k], canonical(positions[k]))) << to_text(positions[k]);
    EXPECT_TRUE(same_bytes(in_place[k], out[k])) << to_text(positions[k]);
  }
}

TEST(OthelloCanonical, TheDeviceWritesTheHostsBytes) {
  GSDK_REQUIRE_GPU();
  const auto game = test::make_game();
  const gsdk_perft_keys& keys = *game->tables().perft_keys;
  ASSERT_NE(keys.cuda_canonical, nullptr) << "a CUDA build's othello has the CUDA perft kernels";
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
  ASSERT_EQ(keys.cuda_canonical(game->handle(), in, count, out, stream.handle(), error, sizeof error), GSDK_OK)
      << error;
  ASSERT_EQ(keys.cuda_canonical(game->handle(), in, count, in, stream.handle(), error, sizeof error), GSDK_OK) << error;
  std::vector<Position> found(positions.size()), found_in_place(positions.size());
  stream.copy_to_host(found.data(), out, bytes);
  stream.copy_to_host(found_in_place.data(), in, bytes);
  stream.synchronize();
  for (size_t k = 0; k < positions.size(); ++k) {
    EXPECT_TRUE(same_bytes(found[k], canonical(positions[k]))) << to_text(positions[k]);
    EXPECT_TRUE(same_bytes(found_in_place[k], canonical(positions[k]))) << to_text(positions[k]);
  }
}

} // namespace
} // namespace othello
