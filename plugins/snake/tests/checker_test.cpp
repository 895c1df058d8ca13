// checker_test.cpp - the independent snake checker accepts good snakes (the known optimal 7-edge snake of
// the 4-cube among them) and rejects each kind of bad one at the right index, and every snake read backwards is
// a snake (plugins/snake/bench/snake_portfolio.sh polishes snakes turned round); snake files round-trip and malformed
// ones are refused naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "checker/snake_check.hpp"
#include "checker/snake_document.hpp"
#include "test_paths.hpp"
#include "tools/snake_file.hpp"

namespace {

using snake::checker::check_snake;
using snake::checker::Snake;
using snake::checker::walk_vertices;

Snake from_moves(uint32_t dimension, std::vector<uint32_t> moves) {
  return Snake{dimension, moves, walk_vertices(moves)};
}

TEST(SnakeChecker, AcceptsGoodSnakes) {
  EXPECT_TRUE(check_snake(from_moves(3, {})).ok);
  EXPECT_TRUE(check_snake(from_moves(3, {0, 1, 2, 0})).ok);
  EXPECT_TRUE(check_snake(from_moves(4, {0, 1, 2, 0, 3, 1, 0})).ok);
}

TEST(SnakeChecker, RejectsEachKindOfBadSnakeAtItsIndex) {
  const auto verdict = [](const Snake& s) { return check_snake(s); };
  auto v = verdict(from_moves(3, {0, 1, 0}));
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.index, 3u);
  EXPECT_EQ(v.violation, "vertex 3 (2) is adjacent to vertex 0 (0), which is not its predecessor");

  v = verdict(from_moves(3, {0, 0}));
  EXPECT_EQ(v.index, 2u);
  EXPECT_EQ(v.violation, "vertex 2 (0) repeats vertex 0 (0)");

  v = verdict(from_moves(3, {0, 3}));
  EXPECT_EQ(v.index, 2u);
  EXPECT_EQ(v.violation, "move 1 (3) is not a dimension 0..2");

  Snake jump = from_moves(4, {0, 1, 2});
  jump.vertices[2] = 5; // 1 -> 5 flips bit 2, not the move's bit 1
  v = verdict(jump);
  EXPECT_EQ(v.index, 2u);
  EXPECT_EQ(v.violation, "vertex 2 (5) is not vertex 1 (1) with bit 1 flipped (move 1)");

  Snake offset = from_moves(3, {0});
  offset.vertices = {1, 0};
  v = verdict(offset);
  EXPECT_EQ(v.index, 0u);
  EXPECT_EQ(v.violation, "vertex 0 is 1, not 0");

  Snake outside = from_moves(3, {0});
  outside.vertices[1] = 9;
  v = verdict(outside);
  EXPECT_EQ(v.index, 1u);
  EXPECT_EQ(v.violation, "vertex 1 (9) is not a vertex of the 3-cube");

  Snake short_list = from_moves(3, {0, 1});
  short_list.vertices.pop_back();
  EXPECT_EQ(verdict(short_list).violation, "2 moves but 2 vertices (there must be one vertex more than moves)");
  EXPECT_EQ(verdict(Snake{3, {}, {}}).violation, "the snake has no vertices (it must start at vertex 0)");
  EXPECT_EQ(verdict(from_moves(0, {})).violation, "dimension 0 is outside 1..30");

  // A chord late in a long snake: the 7-edge 4-cube snake, then vertex 15, next to vertices 3 (7) and 5 (14).
  v = verdict(from_moves(4, {0, 1, 2, 0, 3, 1, 0, 1}));
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.index, 8u) << v.violation;
}

// Calls visit(moves) for every snake of the cube from vertex 0 with at most max_moves moves.
template <class Visit>
void for_each_snake(uint32_t dimension, size_t max_moves, std::vector<uint32_t>& moves, Visit visit) {
  visit(moves);
  if (moves.size() == max_moves) return;
  for (uint32_t move = 0; move < dimension; ++move) {
    moves.push_back(move);
    if (check_snake(from_moves(dimension, moves)).ok) for_each_snake(dimension, max_moves, moves, visit);
    moves.pop_back();
  }
}

TEST(SnakeChecker, EverySnakeReadBackwardsIsASnake) {
  // The reversed moves walk the same path from its far end, moved by that end vertex: a symmetry of the cube.
  for (const auto& [cube, max_moves] : {std::pair<uint32_t, size_t>{4, 7}, {5, 8}}) {
    // A copy the lambda can capture: clang 14 (the sanitizer build's) does not capture structured bindings.
    const uint32_t dimension = cube;
    std::vector<uint32_t> moves;
    size_t snakes = 0, longest = 0;
    for_each_snake(dimension, max_moves, moves, [&](const std::vector<uint32_t>& snake) {
      const std::vector<uint32_t> backwards(snake.rbegin(), snake.rend());
      EXPECT_TRUE(check_snake(from_moves(dimension, backwards)).ok) << dimension << "-cube, " << snake.size();
      ++snakes;
      longest = std::max(longest, snake.size());
    });
    EXPECT_GT(snakes, 100u) << dimension;
    EXPECT_EQ(longest, max_moves) << dimension; // the 4-cube's optimum 7 is among them
  }
  // A path with a chord read backwards still has it.
  EXPECT_FALSE(check_snake(from_moves(4, {1, 0, 1, 3, 0, 2, 1, 0})).ok);
}

class SnakeFile : public ::testing::Test {
protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir.path() / name;
    gsdk::test::write_file(path, text);
    return path.string();
  }
  std::string refusal(const std::string& text) {
    const std::string path = write("bad.json", text);
    try {
      snake::checker::read_snake_file(path);
      return "";
    } catch (const std::runtime_error& e) {
      return std::string(e.what()).substr(path.size() + 2);
    }
  }
  gsdk::test::TempDir dir;
};

TEST_F(SnakeFile, RoundTripsAndRefusesMalformedFiles) {
  const std::vector<uint32_t> moves{0, 1, 2, 0};
  const auto document = nlohmann::json::parse(snake::checker::snake_document(4, moves));
  EXPECT_EQ(document["format"], "gsdk-snake");
  EXPECT_EQ(document["vertices"], nlohmann::json({0, 1, 3, 7, 6}));
  EXPECT_EQ(document["length"], 4);
  const Snake read = snake::checker::read_snake_file(write("good.json", document.dump()));
  EXPECT_EQ(read.dimension, 4u);
  EXPECT_EQ(read.moves, (std::vector<uint32_t>{0, 1, 2, 0}));
  EXPECT_EQ(read.vertices, (std::vector<uint32_t>{0, 1, 3, 7, 6}));

  EXPECT_EQ(refusal("[1, 2]"), "is not a JSON object");
  EXPECT_EQ(refusal(R"({"dimension": 4, "moves": [], "vertices": [0]})"), "needs \"format\": \"gsdk-snake\"");
  EXPECT_EQ(refusal(R"({"format": "gsdk-snake", "moves": [], "vertices": [0]})"),
            "needs 'dimension', an integer in 1..30");
  EXPECT_EQ(refusal(R"({"format": "gsdk-snake", "dimension": 4, "vertices": [0]})"),
            "needs 'moves', a list of non-negative integers");
  EXPECT_EQ(refusal(R"({"format": "gsdk-snake", "dimension": 4, "moves": [0, -1], "vertices": [0, 1, 0]})"),
            "'moves' entry 1 (-1) is not a non-negative 32-bit integer");
  EXPECT_EQ(refusal(R"({"format": "gsdk-snake", "dimension": 4, "length": 3, "moves": [0], "vertices": [0, 1]})"),
            "'length' is 3 but there are 1 moves");
  EXPECT_NE(refusal("{not json"), "");
}

} // namespace
