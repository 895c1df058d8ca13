// snake_file_fuzz.cpp - fuzzes the snake file reader and the independent checker behind snake_check. Any input
// must give a snake or std::runtime_error; the checker must give a verdict on any snake read, and a snake it
// accepts must walk its moves.
#include <stdexcept>

#include "checker/snake_check.hpp"
#include "fuzz_check.hpp"
#include "tools/snake_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  snake::checker::Snake snake;
  try {
    snake = snake::checker::parse_snake_document(gsdk::fuzz::as_text(data, size));
  } catch (const std::runtime_error&) {
    return 0;
  }
  const snake::checker::SnakeVerdict verdict = snake::checker::check_snake(snake);
  if (verdict.ok)
    gsdk::fuzz::require(snake::checker::walk_vertices(snake.moves) == snake.vertices,
                        "an accepted snake walks its moves");
  return 0;
}
