// run_files.cpp - every file `gsdk run` writes, checked before the run.
#include "algorithms/run_files.hpp"

#include "algorithms/algorithm.hpp"
#include "algorithms/registry.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

void check_run_files(const ExperimentConfig& config, const std::string& results_path, const std::string& plot_path,
                     const std::string& checkpoint_path) {
  RunFiles files = driver_of(config).files(config);
  files.inputs.push_back(config.file);
  std::vector<std::pair<std::string, std::string>> outputs = {
      {"the results file (--out or [output] file)", results_path},
      {"the events file ([output] events)", config.events_file},
      {"the picture (--plot or [output] plot)", plot_path},
      {"the checkpoint (--checkpoint)", checkpoint_path}};
  for (const std::string& own : files.outputs) outputs.emplace_back("an output of [" + config.algorithm + "]", own);
  refuse_shared_outputs(outputs);
  for (const auto& [what, output] : outputs) {
    if (output.empty()) continue;
    for (const std::string& input : files.inputs) refuse_input_as_output(output, input);
    // No other output shares the checkpoint's path (refused above): the path says which check it gets.
    if (output == checkpoint_path)
      check_checkpoint_path(output);
    else
      check_output_path(output);
  }
}

} // namespace gsdk::host
