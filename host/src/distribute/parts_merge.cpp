// parts_merge.cpp - merging the parts of a run (parts_merge.hpp).
#include "distribute/parts_merge.hpp"

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"

namespace gsdk::host {

nlohmann::json merge_parts_progress(const Algorithm& driver, const std::vector<nlohmann::json>& progresses,
                                    const std::vector<std::string>& names) {
  nlohmann::json merged = progresses.at(0);
  for (size_t i = 1; i < progresses.size(); ++i)
    merged = driver.merge_progress(merged, progresses[i], fmt::format("{} (merged with the parts before it)", names.at(i)));
  return merged;
}

ExperimentRun run_merged(ExperimentConfig config, const PluginCatalog& catalog, const nlohmann::json& merged,
                         RunOptions options) {
  config.run.device = "cpu";
  config.run.threads = 1;
  config.run.gpus.clear();
  options.resume = &merged;
  options.part = nullptr;
  options.checkpoint.clear();
  return run_experiment(config, catalog, options);
}

} // namespace gsdk::host
