// check_snake.cpp - `gsdk check-snake FILE`: verifies a snake file with the independent checker and
// prints OK with the length, or the first violation and its index (exit status 1).
#include <cstdio>

#include <fmt/format.h>

#include "../command_line.hpp"
#include "../log.hpp"
#include "../snake_file.hpp"

namespace gsdk::host {

int command_check_snake(const Arguments& args) {
  po::options_description options("gsdk check-snake");
  add_common_options(options);
  options.add_options()("file", po::value<std::string>()->required(), "snake file (JSON, format gsdk-snake)");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk check-snake FILE", options, positional, vm)) return *exit;

  const std::string path = vm["file"].as<std::string>();
  Snake snake;
  try {
    snake = read_snake_file(path);
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const SnakeVerdict verdict = check_snake(snake);
  if (!verdict.ok) {
    std::printf("INVALID %s: at index %zu: %s\n", path.c_str(), verdict.index, verdict.violation.c_str());
    return kExitFailed;
  }
  std::printf("OK %s: a snake of length %zu in dimension %u\n", path.c_str(), snake.moves.size(), snake.dimension);
  return kExitOk;
}

} // namespace gsdk::host
