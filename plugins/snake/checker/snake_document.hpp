// snake_document.hpp - the snake file: a small JSON document a person can read and any tool can check,
// which the plugin writes for every best snake a search saves (gsdk.sequence_documents.v1).
//
//   {"dimension": 5, "format": "gsdk-snake", "length": 4, "moves": [0, 1, 2, 0], "vertices": [0, 1, 3, 7, 6]}
//
// length is the number of edges (moves); vertices repeat the moves as the path they walk, so a checker
// can verify the two against each other.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace snake::checker {

// The document (JSON text, keys in alphabetical order) of a snake of `dimension` that makes `moves` from vertex 0.
std::string snake_document(uint32_t dimension, std::span<const uint32_t> moves);

} // namespace snake::checker
