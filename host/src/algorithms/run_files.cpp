// run_files.cpp - every file `gsdk run` writes, checked before the run.
#include "algorithms/run_files.hpp"

#include "algorithms/algorithm.hpp"
#include "algorithms/registry.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

void check_run_files(const ExperimentConfig& config, const std::string& results_path, const std::string& plot_path) {
  RunFiles files = driver_of(config).files(config);
  files.inputs.push_back(config.file);
  files.outputs.push_back(results_path);
  if (!config.events_file.empty()) files.outputs.push_back(config.events_file);
  if (!plot_path.empty()) files.outputs.push_back(plot_path);
  for (const std::string& output : files.outputs) {
    for (const std::string& input : files.inputs) refuse_input_as_output(output, input);
    check_output_path(output);
  }
}

} // namespace gsdk::host
