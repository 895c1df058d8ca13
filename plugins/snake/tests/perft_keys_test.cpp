// perft_keys_test.cpp - snake's CPU perft against a recursion over the reference rules (empty and mid-game snakes,
// with and without symmetry breaking, with blocked sub-cubes, finished snakes), the CUDA perft's rules run on the
// host against the per-state table, and canonical states: idempotent, only the move list zeroed, transposed snakes
// sharing a key, and every group of snakes sharing one having the same perft counts.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cuda/perft_rules.hpp"
#include "reference_snakes.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_rules;
using test::Path;
using test::reference_perft;
using test::Settings;

State state_of(const Game& game, const std::vector<uint32_t>& moves) {
  State s;
  game.initial_state(s);
  for (uint32_t k : moves) game.apply_move(s, k);
  return s;
}

TEST(SnakePerft, EmptySnakeMatchesTheReferenceRecursion) {
  for (const uint32_t d : {4u, 5u})
    for (const bool symmetry_breaking : {false, true}) {
      const Game game = make_rules(Settings{d, symmetry_breaking});
      const State empty = state_of(game, {});
      EXPECT_EQ(game.cpu_perft(empty, 0), 1u);
      for (uint32_t depth = 1; depth <= (d == 4 ? 9u : 8u); ++depth)
        EXPECT_EQ(game.cpu_perft(empty, depth), reference_perft(d, symmetry_breaking, Path{}, depth))
            << "d=" << d << " symmetry_breaking=" << symmetry_breaking << " depth " << depth;
    }
  // The longest 4-cube snake has 7 edges, so perft 8 and on is 0 (a snake with no move is no leaf below depth 0).
  const Game d4 = make_rules(Settings{4, false});
  EXPECT_GT(d4.cpu_perft(state_of(d4, {}), 7), 0u);
  EXPECT_EQ(d4.cpu_perft(state_of(d4, {}), 8), 0u);
}

TEST(SnakePerft, MidGameAndFinishedSnakes) {
  const Game game = make_rules(Settings{5, false});
  const std::vector<uint32_t> moves = {0, 1, 2, 0, 3};
  Path p;
  for (uint32_t k : moves) p = test::extended(p, k);
  for (uint32_t depth = 1; depth <= 7; ++depth)
    EXPECT_EQ(game.cpu_perft(state_of(game, moves), depth), reference_perft(5, false, p, depth)) << depth;
  const Game d3 = make_rules(Settings{3, true});
  const State finished = state_of(d3, {0, 1, 2, 0});
  ASSERT_EQ(d3.current_player(finished), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(d3.cpu_perft(finished, 0), 1u);
  EXPECT_EQ(d3.cpu_perft(finished, 1), 0u);
  EXPECT_EQ(d3.cpu_perft(finished, 3), 0u);
}

TEST(SnakePerft, BlockedSubcubesMatchTheReferenceWithThoseVerticesForbidden) {
  const struct {
    const char* subcubes;
    test::Forbidden forbidden;
  } cases[] = {{"1****", [](uint32_t v) { return (v & 16u) != 0; }},
               {"*1*1*", [](uint32_t v) { return (v & 10u) == 10u; }}};
  for (const auto& c : cases) {
    const Game game = make_rules(Settings{5, false, "uniform", c.subcubes});
    for (uint32_t depth = 1; depth <= 8; ++depth)
      EXPECT_EQ(game.cpu_perft(state_of(game, {}), depth), reference_perft(5, false, Path{}, depth, c.forbidden))
          << c.subcubes << " depth " << depth;
  }
}

// The CUDA kernels' rules (cuda/perft_rules.hpp) are host code too: their moves, children and leaf counts are the
// per-state table's, on the snakes met along random games.
TEST(SnakePerft, TheCudaPerftRulesPlayAsThePerStateTable) {
  std::mt19937 random(7);
  for (const Settings& settings :
       {Settings{5, false}, Settings{8, true}, Settings{10, false, "uniform", "10********"}}) {
    const Game game = make_rules(settings);
    const cuda::PerftRules rules{{}, game.rules()};
    for (int g = 0; g < 20; ++g) {
      State s = state_of(game, {});
      for (;;) {
        uint32_t moves[kMaxDimension];
        const uint32_t n = game.legal_moves(s, moves, nullptr);
        std::vector<uint32_t> listed;
        for (auto rest = rules.legal_moves(s); !rest.empty(); rest = rest.without_first())
          listed.push_back(rest.first());
        ASSERT_EQ(listed, std::vector<uint32_t>(moves, moves + n));
        for (uint32_t plies = 1; plies <= gsdk::nested::kPerftLeafPlies; ++plies)
          ASSERT_EQ(gsdk::nested::perft_leaves(rules, s, plies), game.cpu_perft(s, plies));
        if (n == 0) break;
        const uint32_t k = moves[random() % n];
        State by_table = s;
        game.apply_move(by_table, k);
        rules.play(s, k);
        ASSERT_EQ(std::memcmp(&s, &by_table, sizeof s), 0);
      }
    }
  }
}

bool same_bytes(const State& a, const State& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(SnakeKeys, CanonicalStatesZeroTheMoveListOnlyAndAreFixedPoints) {
  std::mt19937 random(11);
  const Game game = make_rules(Settings{9, false});
  for (int g = 0; g < 50; ++g) {
    State s = state_of(game, {});
    for (uint32_t moves[kMaxDimension], n; (n = game.legal_moves(s, moves, nullptr)) != 0;) {
      game.apply_move(s, moves[random() % n]);
      State c = s;
      game.canonical_state(c);
      for (const uint8_t m : c.moves) ASSERT_EQ(m, 0);
      State kept = s;
      std::memset(kept.moves, 0, sizeof kept.moves);
      ASSERT_TRUE(same_bytes(c, kept)); // the bitset, head, length, dimensions used, dimension as they were
      State again = c;
      game.canonical_state(again);
      ASSERT_TRUE(same_bytes(again, c));
      ASSERT_EQ(game.state_hash(c), game.state_hash(s));
    }
  }
}

TEST(SnakeKeys, TransposedSnakesShareAKey) {
  const Game game = make_rules(Settings{4, false});
  // 0-1-3-7-15-14 and 0-2-3-7-15-14: different paths to one head, blocking the same vertices (found by brute force).
  State a = state_of(game, {0, 1, 2, 3, 0}), b = state_of(game, {0, 2, 1, 3, 0});
  EXPECT_FALSE(same_bytes(a, b));
  EXPECT_EQ(game.state_hash(a), game.state_hash(b));
  EXPECT_EQ(game.evaluate(a), game.evaluate(b));
  game.canonical_state(a);
  game.canonical_state(b);
  EXPECT_TRUE(same_bytes(a, b));
}

// The contract of gsdk.perft_keys.v1 over every snake of the 4-cube: snakes with one canonical state have the same
// perft counts at every depth (by the reference recursion), and some keys do merge snakes.
TEST(SnakeKeys, EverySnakeSharingAKeyHasTheSameCounts) {
  for (const bool symmetry_breaking : {false, true}) {
    const Game game = make_rules(Settings{4, symmetry_breaking});
    std::vector<Path> snakes;
    test::every_snake(4, symmetry_breaking, Path{}, snakes);
    std::map<std::string, std::vector<const Path*>> groups;
    for (const Path& p : snakes) {
      State c = state_of(game, p.moves);
      game.canonical_state(c);
      groups[std::string(reinterpret_cast<const char*>(&c), sizeof c)].push_back(&p);
    }
    size_t merged = 0;
    for (const auto& [key, members] : groups) {
      merged += members.size() > 1 ? 1 : 0;
      for (uint32_t depth = 1; depth <= 7; ++depth) {
        for (const Path* p : members) {
          ASSERT_EQ(reference_perft(4, symmetry_breaking, *p, depth),
                    reference_perft(4, symmetry_breaking, *members.front(), depth));
        }
      }
    }
    if (!symmetry_breaking) {
      EXPECT_GT(merged, 0u);
    }
  }
}

} // namespace
} // namespace snake
