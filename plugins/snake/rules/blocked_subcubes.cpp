// blocked_subcubes.cpp - reading sub-cube patterns and blocking their vertices.
#include "blocked_subcubes.hpp"

#include <stdexcept>
#include <string>

namespace snake {

namespace {

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

Subcube parse_subcube(std::string_view pattern, uint32_t dimension) {
  const std::string quoted = "'" + std::string(pattern) + "'";
  const std::string form = std::to_string(dimension) + " characters '0', '1' or '*', highest dimension first";
  if (pattern.size() != dimension)
    throw std::invalid_argument("sub-cube " + quoted + " has " + std::to_string(pattern.size()) +
                                " characters; expected " + form);
  Subcube cube{0, 0};
  for (uint32_t i = 0; i < dimension; ++i) {
    const uint32_t bit = 1u << (dimension - 1 - i);
    const char c = pattern[i];
    if (c == '*') continue;
    if (c != '0' && c != '1')
      throw std::invalid_argument("sub-cube " + quoted + ": character " + std::to_string(i + 1) + " '" +
                                  std::string(1, c) + "' is not '0', '1' or '*'; expected " + form);
    cube.fixed |= bit;
    if (c == '1') cube.value |= bit;
  }
  if (cube.value == 0)
    throw std::invalid_argument("sub-cube " + quoted + " contains vertex 0, where every snake starts");
  return cube;
}

} // namespace

std::vector<Subcube> parse_subcubes(std::string_view list, uint32_t dimension) {
  std::vector<Subcube> cubes;
  if (trimmed(list).empty()) return cubes;
  for (size_t begin = 0;;) {
    const size_t comma = list.find(',', begin);
    const std::string_view item = trimmed(list.substr(begin, comma == std::string_view::npos ? comma : comma - begin));
    if (item.empty())
      throw std::invalid_argument("an empty sub-cube in the list '" + std::string(list) +
                                  "' (two commas, or one at an end)");
    cubes.push_back(parse_subcube(item, dimension));
    if (comma == std::string_view::npos) return cubes;
    begin = comma + 1;
  }
}

void block_subcubes(State& s, const std::vector<Subcube>& subcubes) {
  const WordBits blocked{s.blocked};
  for (uint32_t v = 0; v < (1u << s.dimension); ++v)
    for (const Subcube& cube : subcubes)
      if (cube.contains(v)) blocked.set(v);
}

} // namespace snake
