// snake_check.hpp - an independent checker for snakes in the box, written without the snake plugin's
// rules so that it can catch their mistakes: it works on the vertex list alone, square by square.
// Standalone (the standard library only): the plugin checks every sequence a search reports with it
// (gsdk.sequence_documents.v1), the snake_check tool checks snake files with it, and the tests use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace snake::checker {

struct Snake {
  uint32_t dimension = 0;
  std::vector<uint32_t> moves;    // move i flips bit moves[i] of vertices[i]
  std::vector<uint32_t> vertices; // vertices[0] = 0, vertices.size() = moves.size() + 1
};

struct SnakeVerdict {
  bool ok = false;
  size_t index = 0;      // when !ok, the first vertex at fault (or that its move, index - 1, leads to)
  std::string violation; // what is wrong, naming vertices by index and value
};

inline constexpr uint32_t kLargestCheckedDimension = 30;

// The vertices a move list walks through from vertex 0.
inline std::vector<uint32_t> walk_vertices(const std::vector<uint32_t>& moves) {
  std::vector<uint32_t> vertices{0};
  for (uint32_t k : moves) vertices.push_back(vertices.back() ^ (k < 32 ? 1u << k : 0u));
  return vertices;
}

// The first violation of the snake rules, scanning vertices in order: vertex 0 is 0; every vertex is a
// vertex of the hypercube; consecutive vertices differ in exactly the bit their move names; no vertex
// repeats an earlier one; no vertex is adjacent to an earlier vertex other than its predecessor.
inline SnakeVerdict check_snake(const Snake& snake) {
  const uint32_t d = snake.dimension;
  const auto fail = [](size_t index, std::string violation) {
    return SnakeVerdict{false, index, std::move(violation)};
  };
  if (d < 1 || d > kLargestCheckedDimension)
    return fail(0, "dimension " + std::to_string(d) + " is outside 1.." + std::to_string(kLargestCheckedDimension));
  if (snake.vertices.empty()) return fail(0, "the snake has no vertices (it must start at vertex 0)");
  if (snake.vertices.size() != snake.moves.size() + 1)
    return fail(0, std::to_string(snake.moves.size()) + " moves but " + std::to_string(snake.vertices.size()) +
                       " vertices (there must be one vertex more than moves)");
  if (snake.vertices[0] != 0) return fail(0, "vertex 0 is " + std::to_string(snake.vertices[0]) + ", not 0");
  const auto name = [&](size_t i) {
    return "vertex " + std::to_string(i) + " (" + std::to_string(snake.vertices[i]) + ")";
  };
  std::unordered_map<uint32_t, size_t> earlier;
  for (size_t i = 0; i < snake.vertices.size(); ++i) {
    const uint32_t v = snake.vertices[i];
    if (i > 0 && snake.moves[i - 1] >= d)
      return fail(i, "move " + std::to_string(i - 1) + " (" + std::to_string(snake.moves[i - 1]) +
                         ") is not a dimension 0.." + std::to_string(d - 1));
    if (v >> d != 0) return fail(i, name(i) + " is not a vertex of the " + std::to_string(d) + "-cube");
    if (i > 0 && (v ^ snake.vertices[i - 1]) != 1u << snake.moves[i - 1])
      return fail(i, name(i) + " is not " + name(i - 1) + " with bit " + std::to_string(snake.moves[i - 1]) +
                         " flipped (move " + std::to_string(i - 1) + ")");
    if (const auto same = earlier.find(v); same != earlier.end())
      return fail(i, name(i) + " repeats " + name(same->second));
    for (uint32_t bit = 0; bit < d; ++bit) {
      const auto near = earlier.find(v ^ (1u << bit));
      if (near != earlier.end() && near->second + 1 != i)
        return fail(i, name(i) + " is adjacent to " + name(near->second) + ", which is not its predecessor");
    }
    earlier.emplace(v, i);
  }
  return SnakeVerdict{true, 0, ""};
}

} // namespace snake::checker
