// best_sequence_file.cpp - the moves of a saved best sequence, for a search to start from.
#include "best_sequence_file.hpp"

#include <stdexcept>

namespace gsdk::host {

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

std::vector<uint32_t> read_best_moves(const std::string& path) {
  return read_json_document(path, [](const nlohmann::json& document) {
    const std::string format = document.value("format", "");
    if (format != "gsdk-snake" && format != "gsdk-moves")
      throw std::runtime_error("needs \"format\": \"gsdk-snake\" or \"gsdk-moves\" (a search's best-sequence file)");
    return unsigned_list(document, "moves");
  });
}

} // namespace gsdk::host
