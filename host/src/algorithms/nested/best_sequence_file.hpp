// best_sequence_file.hpp - reading back the moves of a search's best-sequence file (the document an NMCS or
// NRPA run saves: the game's own, such as a snake file, or gsdk-moves), or of a file of many sequences (JSON Lines,
// such as an NMCS run's [output] searches), so that other searches can start from them.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/input_file.hpp"

namespace gsdk::host {

// document[field] as non-negative 32-bit integers; throws std::runtime_error naming the field, or the
// first entry that is not one.
std::vector<uint32_t> unsigned_list(const nlohmann::json& document, const char* field);

// Opens and parses the JSON object at `path` and returns read(document); any error, the parser's or one
// read() throws as std::runtime_error, comes out as std::runtime_error prefixed with the path.
template <class Read> auto read_json_document(const std::string& path, const Read& read) {
  InputFile in = open_input_file(path);
  if (!in.failure.empty()) throw std::runtime_error(path + ": cannot open: " + in.failure);
  try {
    const nlohmann::json document = nlohmann::json::parse(in.stream);
    if (!document.is_object()) throw std::runtime_error("is not a JSON object");
    return read(document);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

// The moves of a best-sequence file. Throws std::runtime_error naming the path and what is wrong with it.
std::vector<uint32_t> read_best_moves(const std::string& path);

// The "moves" of every line of a JSON Lines file (blank lines skipped), in file order. Throws
// std::runtime_error naming the path and line of what is wrong, or saying that the file holds no sequence.
std::vector<std::vector<uint32_t>> read_sequence_lines(const std::string& path);

} // namespace gsdk::host
