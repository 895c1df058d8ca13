// snake_text_fuzz.cpp - fuzzes snake's game parameters and state text, as the plugin reads them: the input's first
// line is "<dimension> <blocked_subcubes>" (the blocked sub-cubes list may be empty), the rest the snake's text.
// Any input must give a snake or std::invalid_argument; a snake read must write back as text that reads as the
// same snake.
#include <charconv>
#include <stdexcept>
#include <string>

#include "fuzz_check.hpp"
#include "rules/blocked_subcubes.hpp"
#include "rules/hypercube.hpp"
#include "rules/rules.hpp"
#include "rules/snake_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input = gsdk::fuzz::as_text(data, size);
  const size_t line_end = std::min(input.find('\n'), input.size());
  const std::string_view header = input.substr(0, line_end);
  const std::string_view text = input.substr(std::min(line_end + 1, input.size()));
  uint32_t dimension = 0;
  const auto [rest, error] = std::from_chars(header.data(), header.data() + header.size(), dimension);
  if (error != std::errc() || dimension < snake::kMinDimension || dimension > snake::kMaxDimension) return 0;
  const std::string_view subcubes = header.substr(static_cast<size_t>(rest - header.data()));

  snake::State empty{};
  snake::start_state(empty, dimension);
  try {
    snake::block_subcubes(empty, snake::parse_subcubes(subcubes, dimension));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  // Symmetry breaking only without blocked sub-cubes, as the plugin requires.
  const snake::Rules rules{dimension, subcubes.find_first_not_of(' ') == std::string_view::npos};
  snake::State s;
  try {
    s = snake::parse_text(text, rules, empty);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string written = snake::to_text(s);
  gsdk::fuzz::require(snake::to_text(snake::parse_text(written, rules, empty)) == written,
                      "snake text reads back the same");
  return 0;
}
