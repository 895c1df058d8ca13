// best_sequence_file.cpp - the moves of a saved best sequence, or of many, for searches to start from.
#include "algorithms/nested/best_sequence_file.hpp"

#include <stdexcept>
#include <string>

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
    if (!document.contains("format") || !document["format"].is_string())
      throw std::runtime_error("needs \"format\", a string naming the document's kind (a search's best-sequence file)");
    return unsigned_list(document, "moves");
  });
}

std::vector<std::vector<uint32_t>> read_sequence_lines(const std::string& path) {
  InputFile in = open_input_file(path);
  if (!in.failure.empty()) throw std::runtime_error(path + ": cannot open: " + in.failure);
  std::vector<std::vector<uint32_t>> sequences;
  std::string line;
  for (size_t number = 1; std::getline(in.stream, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    try {
      const nlohmann::json document = nlohmann::json::parse(line);
      if (!document.is_object()) throw std::runtime_error("is not a JSON object");
      sequences.push_back(unsigned_list(document, "moves"));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(where + e.what());
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(where + e.what());
    }
  }
  if (sequences.empty()) throw std::runtime_error(path + ": holds no sequence (one JSON object with \"moves\" a line)");
  return sequences;
}

} // namespace gsdk::host
