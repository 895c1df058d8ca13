// snake_file.hpp - reading a snake file (checker/snake_document.hpp says what one holds) for the snake_check tool
// and the tests.
#pragma once

#include <string>
#include <string_view>

#include "checker/snake_check.hpp"

namespace snake::checker {

// Reads a snake document from the regular file `path`. Throws std::runtime_error naming the path and what is wrong:
// not a regular file (a FIFO, a device such as /dev/zero, a directory: refused before it is read, so that nothing
// blocks), a missing or malformed field, or a length that disagrees with the moves.
Snake read_snake_file(const std::string& path);

// Reads a snake document from its text (the file's contents). Throws std::runtime_error as above, without a path.
Snake parse_snake_document(std::string_view text);

} // namespace snake::checker
