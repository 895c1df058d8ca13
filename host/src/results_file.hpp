// results_file.hpp - writing and reading results documents (JSON).
#pragma once

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace gsdk::host {

// Writes pretty JSON, creating parent folders. Throws std::runtime_error naming the path.
void write_json(const std::string& path, const nlohmann::json& document);
// Opens a JSON-Lines events file for writing (none when path is empty), creating parent folders.
// Throws std::runtime_error naming the path.
std::ofstream open_events(const std::string& path);
// Throws std::runtime_error naming the path and what is wrong.
nlohmann::json read_json(const std::string& path);

} // namespace gsdk::host
