// algorithm_listing.cpp - text, Markdown and JSON listings of the algorithm registry.
#include "algorithms/algorithm_listing.hpp"

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/registry.hpp"

namespace gsdk::host {

namespace {

std::string text_rows(const std::vector<KeyDoc>& keys) {
  std::string out;
  for (const KeyDoc& k : keys)
    out += fmt::format("      {:<22} {}, {}{}: {}\n", k.name, k.type,
                       k.fallback == "required" ? "required" : "default " + k.fallback,
                       k.range.empty() ? "" : ", values " + k.range, k.doc);
  return out;
}

std::string markdown_rows(const std::vector<KeyDoc>& keys) {
  std::string out = "| key | type | default | values | meaning |\n|---|---|---|---|---|\n";
  for (const KeyDoc& k : keys)
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", k.name, k.type, k.fallback, k.range.empty() ? "-" : k.range,
                       k.doc);
  return out;
}

nlohmann::json keys_json(const std::vector<KeyDoc>& keys) {
  nlohmann::json out = nlohmann::json::array();
  for (const KeyDoc& k : keys)
    out.push_back({{"name", k.name}, {"type", k.type}, {"default", k.fallback}, {"values", k.range}, {"doc", k.doc}});
  return out;
}

// The [output] keys the algorithm refuses, each with its reason: a user learns it from the listing, not from a
// failed run.
std::vector<std::pair<std::string, std::string>> refused_output_keys(const AlgorithmInfo& info) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!info.no_plot.empty()) out.emplace_back("plot", info.no_plot);
  if (!info.no_events.empty()) out.emplace_back("events", info.no_events);
  return out;
}

// {"plot": reason, "events": reason}, the refused keys only.
nlohmann::json refused_json(const AlgorithmInfo& info) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, reason] : refused_output_keys(info)) out[key] = reason;
  return out;
}

} // namespace

std::string algorithms_text() {
  std::string out = fmt::format("algorithms ({}):\n", algorithms().size());
  for (const Algorithm* a : algorithms()) {
    const AlgorithmInfo& info = a->info();
    out += fmt::format("\n  {}  {}\n    [{}]\n{}", info.name, info.summary, info.name, text_rows(info.keys));
    if (!info.output_keys.empty()) out += "    [output] (besides file, plot, events)\n" + text_rows(info.output_keys);
    if (!info.no_run_table.empty()) out += fmt::format("    [run] does not apply: {}\n", info.no_run_table);
    for (const auto& [key, reason] : refused_output_keys(info))
      out += fmt::format("    [output] {} refused{}: {}\n", key, key == "plot" ? " (and --plot)" : "", reason);
  }
  return out;
}

std::string algorithms_markdown() {
  std::string out;
  for (const Algorithm* a : algorithms()) {
    const AlgorithmInfo& info = a->info();
    std::string summary = info.summary;
    summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
    out += fmt::format("#### `algorithm = \"{}\"`\n\n{}.\n\n`[{}]`:\n\n{}", info.name, summary, info.name,
                       markdown_rows(info.keys));
    if (!info.output_keys.empty())
      out += "\n`[output]`, besides `file`, `plot` and `events`:\n\n" + markdown_rows(info.output_keys);
    if (!info.no_run_table.empty()) out += fmt::format("\n`[run]` does not apply: {}.\n", info.no_run_table);
    for (const auto& [key, reason] : refused_output_keys(info))
      out += fmt::format("\n`[output] {}`{} is refused: {}.\n", key, key == "plot" ? " (and `--plot`)" : "", reason);
    out += "\n";
  }
  return out;
}

nlohmann::json algorithms_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const Algorithm* a : algorithms()) {
    const AlgorithmInfo& info = a->info();
    out.push_back({{"name", info.name},
                   {"summary", info.summary},
                   {"keys", keys_json(info.keys)},
                   {"output_keys", keys_json(info.output_keys)},
                   {"run_table", info.no_run_table.empty()},
                   {"refused_output_keys", refused_json(info)}});
  }
  return out;
}

} // namespace gsdk::host
