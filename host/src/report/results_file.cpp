// results_file.cpp - JSON files on disk.
#include "report/results_file.hpp"

#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "report/input_file.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

void write_json(const std::string& path, const nlohmann::json& document) {
  write_file(path, document.dump(2) + '\n');
}

bool write_json_or_print(const std::string& path, const nlohmann::json& document) {
  try {
    write_json(path, document);
    return true;
  } catch (const OutputError& e) {
    log_line(LogLevel::error, fmt::format("{} (the document follows on stdout)", e.what()));
    std::fputs((document.dump(2) + '\n').c_str(), stdout);
    std::fflush(stdout);
    return false;
  }
}

nlohmann::json read_json(const std::string& path) {
  InputFile in = open_input_file(path);
  if (!in.failure.empty())
    throw std::runtime_error(fmt::format("{}: cannot open the results file: {}", path, in.failure));
  try {
    return nlohmann::json::parse(in.stream);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(fmt::format("{}: not a JSON results file: {}", path, e.what()));
  }
}

} // namespace gsdk::host
