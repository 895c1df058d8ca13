// best_sequence_file.hpp - reading back the moves of a search's best-sequence file (the "gsdk-snake" or
// "gsdk-moves" document an NMCS or NRPA run saves), so that another search can start from them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gsdk::host {

// document[field] as non-negative 32-bit integers; throws std::runtime_error naming the field, or the
// first entry that is not one.
std::vector<uint32_t> unsigned_list(const nlohmann::json& document, const char* field);

// The moves of a best-sequence file. Throws std::runtime_error naming the path and what is wrong with it.
std::vector<uint32_t> read_best_moves(const std::string& path);

} // namespace gsdk::host
