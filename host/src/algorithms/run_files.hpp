// run_files.hpp - the files of `gsdk run`, checked before the experiment starts: an output that cannot be
// written is found before the run's time is spent, no output may overwrite an input, and no two outputs may be
// one file.
#pragma once

#include <string>

#include "config/experiment_config.hpp"

namespace gsdk::host {

// Checks the results file `results_path`, [output] events, the picture `plot_path` and the checkpoint
// `checkpoint_path` (if any) and the driver's own files (RunFiles) against the config file and the driver's inputs,
// and against each other. Throws OutputError saying which path and why.
void check_run_files(const ExperimentConfig& config, const std::string& results_path, const std::string& plot_path,
                     const std::string& checkpoint_path);

} // namespace gsdk::host
