// snake_file.cpp - writing and reading snake files.
#include "snake_file.hpp"

#include <stdexcept>

#include "best_sequence_file.hpp"

namespace gsdk::host {

nlohmann::json snake_document(uint32_t dimension, const std::vector<uint32_t>& moves) {
  return {{"format", "gsdk-snake"},
          {"dimension", dimension},
          {"length", moves.size()},
          {"moves", moves},
          {"vertices", walk_vertices(moves)}};
}

Snake read_snake_file(const std::string& path) {
  return read_json_document(path, [](const nlohmann::json& document) {
    if (document.value("format", "") != "gsdk-snake") throw std::runtime_error("needs \"format\": \"gsdk-snake\"");
    if (!document.contains("dimension") || !document["dimension"].is_number_unsigned() ||
        document["dimension"].get<uint64_t>() > kLargestCheckedDimension)
      throw std::runtime_error("needs 'dimension', an integer in 1.." + std::to_string(kLargestCheckedDimension));
    Snake snake{document["dimension"].get<uint32_t>(), unsigned_list(document, "moves"),
                unsigned_list(document, "vertices")};
    if (document.contains("length") &&
        (!document["length"].is_number_unsigned() || document["length"].get<uint64_t>() != snake.moves.size()))
      throw std::runtime_error("'length' is " + document["length"].dump() + " but there are " +
                               std::to_string(snake.moves.size()) + " moves");
    return snake;
  });
}

} // namespace gsdk::host
