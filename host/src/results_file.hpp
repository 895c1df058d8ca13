// results_file.hpp - writing and reading results documents (JSON).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gsdk::host {

// Writes pretty JSON, creating parent folders. Throws std::runtime_error naming the path.
void write_json(const std::string& path, const nlohmann::json& document);
// Throws std::runtime_error naming the path and what is wrong.
nlohmann::json read_json(const std::string& path);

} // namespace gsdk::host
