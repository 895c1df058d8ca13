// snake_document.cpp - the snake file's JSON text. Written by hand: the plugin is built from the SDK alone,
// and a document of integers and two fixed strings needs no JSON library.
#include "checker/snake_document.hpp"

#include <vector>

#include "checker/snake_check.hpp"

namespace snake::checker {

namespace {

std::string json_list(std::span<const uint32_t> values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

} // namespace

std::string snake_document(uint32_t dimension, std::span<const uint32_t> moves) {
  const std::vector<uint32_t> vertices = walk_vertices({moves.begin(), moves.end()});
  return "{\"dimension\": " + std::to_string(dimension) +
         ", \"format\": \"gsdk-snake\", \"length\": " + std::to_string(moves.size()) +
         ", \"moves\": " + json_list(moves) + ", \"vertices\": " + json_list(vertices) + "}";
}

} // namespace snake::checker
