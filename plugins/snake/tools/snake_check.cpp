// snake_check.cpp - `snake_check FILE`: verifies a snake file with the independent checker and prints OK with
// the length (exit status 0), or the first violation and its index (exit status 1); a file that cannot be read
// as a snake file is refused with the reason (exit status 2), and so is anything but a regular file (a FIFO,
// /dev/zero), before it is read.
#include <cstdio>
#include <exception>
#include <string>

#include "checker/snake_check.hpp"
#include "tools/snake_file.hpp"

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fprintf(stderr, "usage: snake_check FILE\n  verifies a snake-in-the-box file (format gsdk-snake), as gsdk's "
                         "snake searches save them\n");
    return argc == 2 ? 0 : 2;
  }
  const std::string path = argv[1];
  snake::checker::Snake snake;
  try {
    snake = snake::checker::read_snake_file(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "snake_check: error: %s\n", e.what());
    return 2;
  }
  const snake::checker::SnakeVerdict verdict = snake::checker::check_snake(snake);
  if (!verdict.ok) {
    std::printf("INVALID %s: at index %zu: %s\n", path.c_str(), verdict.index, verdict.violation.c_str());
    return 1;
  }
  std::printf("OK %s: a snake of length %zu in dimension %u\n", path.c_str(), snake.moves.size(), snake.dimension);
  return 0;
}
