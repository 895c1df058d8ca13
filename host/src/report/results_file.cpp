// results_file.cpp - JSON files on disk.
#include "report/results_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::host {

void write_json(const std::string& path, const nlohmann::json& document) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(p);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the results file", path));
  out << document.dump(2) << '\n';
  if (!out) throw std::runtime_error(fmt::format("{}: writing the results file failed", path));
}

std::ofstream open_json_lines(const std::string& path, const char* what) {
  std::ofstream file;
  if (path.empty()) return file;
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  file.open(p);
  if (!file) throw std::runtime_error(fmt::format("{}: cannot write the {}", path, what));
  return file;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", path));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(fmt::format("{}: not a JSON results file: {}", path, e.what()));
  }
}

} // namespace gsdk::host
