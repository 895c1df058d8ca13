// snake_text.cpp - reading and writing the text form of a snake.
#include "snake_text.hpp"

#include <cctype>
#include <charconv>
#include <stdexcept>
#include <vector>

namespace snake {

namespace {

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

bool parse_number(std::string_view word, uint32_t& value) {
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  return error == std::errc() && end == word.data() + word.size();
}

std::string quoted(std::string_view word) {
  return "'" + std::string(word) + "'";
}

// Why move k is refused at this state (rules say it is not legal); empty is the game's snake before its first move.
std::string refusal(const Rules& rules, const State& s, const State& empty, uint32_t k) {
  if ((allowed_dimensions(rules, s.used_dimensions) & (1u << k)) == 0)
    return "symmetry breaking allows only dimensions used before or the lowest unused one (" +
           std::to_string(lowest_bit(~s.used_dimensions)) + ")";
  const uint32_t vertex = s.head ^ (1u << k);
  if (ConstWordBits{empty.blocked}.test(vertex))
    return "vertex " + std::to_string(vertex) + " is in a blocked sub-cube";
  return "vertex " + std::to_string(vertex) + " is on the snake or next to an earlier vertex";
}

} // namespace

std::string to_text(const State& s) {
  std::string text = "d=" + std::to_string(s.dimension) + " moves";
  for (uint32_t i = 0; i < s.length; ++i) text += " " + std::to_string(move_at(s, i));
  return text;
}

State parse_text(std::string_view text, const Rules& rules, const State& empty) {
  const std::vector<std::string_view> words = split_words(text);
  const std::string form = "expected 'd=" + std::to_string(rules.dimension) + " moves K1 K2 ...'";
  if (words.empty()) throw std::invalid_argument("empty snake text; " + form);
  uint32_t dimension = 0;
  if (words[0].substr(0, 2) != "d=" || !parse_number(words[0].substr(2), dimension))
    throw std::invalid_argument("first word " + quoted(words[0]) + " is not the dimension; " + form);
  if (dimension != rules.dimension)
    throw std::invalid_argument("the text is a snake of dimension " + std::to_string(dimension) +
                                " but this game has dimension " + std::to_string(rules.dimension));
  if (words.size() < 2 || words[1] != "moves")
    throw std::invalid_argument("second word " + (words.size() < 2 ? std::string("missing") : quoted(words[1])) + "; " +
                                form);
  State s = empty;
  for (size_t i = 2; i < words.size(); ++i) {
    const std::string place = "move " + std::to_string(i - 2) + " " + quoted(words[i]);
    uint32_t k = 0;
    if (!parse_number(words[i], k) || k >= rules.dimension)
      throw std::invalid_argument(place + " is not a dimension 0.." + std::to_string(rules.dimension - 1));
    if ((legal_dimensions(rules, s) & (1u << k)) == 0)
      throw std::invalid_argument(place + " is illegal: " + refusal(rules, s, empty, k));
    play(rules, s, k);
  }
  return s;
}

} // namespace snake
