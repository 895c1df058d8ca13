// snake_file.cpp - reading snake files with nlohmann-json, each field checked.
#include "tools/snake_file.hpp"

#include <cerrno>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

namespace snake::checker {

namespace {

// document[field] as non-negative 32-bit integers; throws naming the field, or the first entry that is not one.
std::vector<uint32_t> unsigned_list(const nlohmann::json& document, const char* field) {
  if (!document.contains(field) || !document[field].is_array())
    throw std::runtime_error(std::string("needs '") + field + "', a list of non-negative integers");
  std::vector<uint32_t> values;
  for (size_t i = 0; i < document[field].size(); ++i) {
    const auto& value = document[field][i];
    if (!value.is_number_unsigned() || value.get<uint64_t>() > UINT32_MAX)
      throw std::runtime_error(std::string("'") + field + "' entry " + std::to_string(i) + " (" + value.dump() +
                               ") is not a non-negative 32-bit integer");
    values.push_back(value.get<uint32_t>());
  }
  return values;
}

Snake read_document(const nlohmann::json& document) {
  if (!document.is_object()) throw std::runtime_error("is not a JSON object");
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
}

} // namespace

Snake parse_snake_document(std::string_view text) {
  try {
    return read_document(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(e.what());
  }
}

Snake read_snake_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::generic_category().message(errno));
  std::stringstream text;
  text << in.rdbuf();
  try {
    return parse_snake_document(text.str());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

} // namespace snake::checker
