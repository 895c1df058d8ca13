// parts_merge.cpp - merging the parts of a run (parts_merge.hpp).
#include "distribute/parts_merge.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/algorithm.hpp"

namespace gsdk::host {

nlohmann::json merge_parts_progress(const Algorithm& driver, std::vector<nlohmann::json> progresses,
                                    const std::vector<std::string>& names) {
  // A part without work items (fewer items than blocks) saved no progress: it adds nothing.
  std::vector<nlohmann::json> saved;
  std::vector<std::string> saved_names;
  for (size_t i = 0; i < progresses.size(); ++i) {
    if (progresses[i].is_null()) continue;
    saved.push_back(std::move(progresses[i]));
    saved_names.push_back(i < names.size() ? names[i] : "a part");
  }
  if (saved.empty()) return nullptr;
  progresses = std::move(saved);
  // Pairs, then pairs of pairs: each part's items are copied about log2(parts) times, where merging them one by one
  // into a growing whole would copy the whole once per part (an MPI job's rank 0 merges thousands of chunks).
  std::vector<std::string> labels = std::move(saved_names);
  while (progresses.size() > 1) {
    std::vector<nlohmann::json> next;
    std::vector<std::string> next_labels;
    for (size_t i = 0; i + 1 < progresses.size(); i += 2) {
      next.push_back(
          driver.merge_progress(progresses[i], progresses[i + 1], fmt::format("{} and {}", labels[i], labels[i + 1])));
      next_labels.push_back(labels[i]); // a merged group is named by its first part
    }
    if (progresses.size() % 2) {
      next.push_back(std::move(progresses.back()));
      next_labels.push_back(labels.back());
    }
    progresses = std::move(next);
    labels = std::move(next_labels);
  }
  return std::move(progresses.front());
}

std::string parts_devices(size_t parts, const std::string& kind, const std::vector<std::string>& devices) {
  std::vector<std::string> distinct;
  for (const std::string& d : devices)
    if (!d.empty() && std::find(distinct.begin(), distinct.end(), d) == distinct.end()) distinct.push_back(d);
  if (distinct.empty()) return "";
  return fmt::format("{} {}: {}", parts, kind, fmt::join(distinct, "; "));
}

ExperimentRun run_merged(ExperimentConfig config, const PluginCatalog& catalog, const nlohmann::json& merged,
                         RunOptions options) {
  config.run.device = DeviceRequest::cpu;
  config.run.threads = 1;
  config.run.gpus.clear();
  options.resume = &merged;
  options.part = nullptr;
  options.checkpoint.clear();
  return run_experiment(config, catalog, options);
}

} // namespace gsdk::host
