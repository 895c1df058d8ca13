// snake_file.hpp - the snake file: a small JSON document a person can read and any tool can check.
//
//   {"format": "gsdk-snake", "dimension": 5, "length": 4, "moves": [0, 1, 2, 0], "vertices": [0, 1, 3, 7, 6]}
//
// length is the number of edges (moves); vertices repeat the moves as the path they walk, so a checker
// can verify the two against each other.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "snake_check.hpp"

namespace gsdk::host {

// The document for a snake of `dimension` that makes `moves` from vertex 0.
nlohmann::json snake_document(uint32_t dimension, const std::vector<uint32_t>& moves);

// Reads a snake document. Throws std::runtime_error naming the path and the missing or malformed field,
// or a length that disagrees with the moves.
Snake read_snake_file(const std::string& path);

} // namespace gsdk::host
