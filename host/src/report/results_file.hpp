// results_file.hpp - writing and reading results documents (JSON).
#pragma once

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace gsdk::host {

// Writes pretty JSON, creating parent folders. Throws std::runtime_error naming the path.
void write_json(const std::string& path, const nlohmann::json& document);
// Opens a JSON-Lines file for writing (none when path is empty), creating parent folders. Throws
// std::runtime_error naming the path and `what` it was to hold.
std::ofstream open_json_lines(const std::string& path, const char* what = "events file");
// Throws std::runtime_error naming the path and what is wrong.
nlohmann::json read_json(const std::string& path);

} // namespace gsdk::host
