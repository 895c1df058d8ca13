// shipped_snakes_test.cpp - every snake shipped under docs/perf/snakes/ (dD_L.json) is a snake of length L in the
// D-cube by the definition itself, checked here apart from the plugin's rules and checker: the path's vertices are
// distinct, and two of them are neighbours in the cube only when they follow each other on the path.
#include <cstdint>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.hpp"
#include "tools/snake_file.hpp"

namespace {

namespace fs = std::filesystem;

// The first index at which the moves from vertex 0 stop being an induced path of the cube, or -1.
int64_t first_fault(uint32_t dimension, const std::vector<uint32_t>& moves) {
  std::vector<int64_t> index_of(size_t{1} << dimension, -1);
  std::vector<uint32_t> vertices{0};
  for (const uint32_t k : moves) {
    if (k >= dimension) return static_cast<int64_t>(vertices.size());
    vertices.push_back(vertices.back() ^ (1u << k));
  }
  for (size_t i = 0; i < vertices.size(); ++i) {
    if (index_of[vertices[i]] >= 0) return static_cast<int64_t>(i);
    index_of[vertices[i]] = static_cast<int64_t>(i);
  }
  for (size_t i = 0; i < vertices.size(); ++i)
    for (uint32_t k = 0; k < dimension; ++k) {
      const int64_t j = index_of[vertices[i] ^ (1u << k)];
      if (j >= 0 && j != static_cast<int64_t>(i) - 1 && j != static_cast<int64_t>(i) + 1)
        return static_cast<int64_t>(std::max<size_t>(i, static_cast<size_t>(j)));
    }
  return -1;
}

TEST(ShippedSnakes, EveryShippedSnakeIsAnInducedPathOfItsLengthAndCube) {
  // build/bin -> the checkout's docs/, wherever the checkout lives.
  const fs::path dir = gsdk::test::bin_dir().parent_path().parent_path() / "docs" / "perf" / "snakes";
  const std::regex name(R"(d(\d+)_(\d+)\.json)");
  int checked = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    std::smatch m;
    const std::string file = entry.path().filename().string();
    if (!std::regex_match(file, m, name)) continue;
    const snake::checker::Snake snake = snake::checker::read_snake_file(entry.path().string());
    EXPECT_EQ(snake.dimension, std::stoul(m[1])) << file;
    EXPECT_EQ(snake.moves.size(), std::stoul(m[2])) << file;
    EXPECT_EQ(first_fault(snake.dimension, snake.moves), -1) << file;
    ++checked;
  }
  EXPECT_GE(checked, 18) << "the shipped snakes were not found in " << dir;
}

TEST(ShippedSnakes, TheCheckSeesAPathThatTouchesItself) {
  EXPECT_EQ(first_fault(3, {0, 1, 0}), 3) << "the path 0, 1, 3, 2 comes back next to its start";
  EXPECT_EQ(first_fault(3, {0, 0}), 2) << "back to vertex 0";
  EXPECT_EQ(first_fault(3, {0, 1, 2, 0}), -1);
  EXPECT_EQ(first_fault(3, {3}), 1) << "no dimension 3 in the 3-cube";
}

} // namespace
