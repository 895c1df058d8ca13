// results_file.hpp - writing and reading results documents (JSON).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gsdk::host {

// Writes pretty JSON atomically (output_file.hpp), creating parent folders. Throws OutputError naming the path.
void write_json(const std::string& path, const nlohmann::json& document);
// Writes `document` to `path`; when that fails, prints it to stdout instead so that the results are not lost,
// says why on stderr and returns false.
bool write_json_or_print(const std::string& path, const nlohmann::json& document);
// Throws std::runtime_error naming the path and what is wrong.
nlohmann::json read_json(const std::string& path);

} // namespace gsdk::host
