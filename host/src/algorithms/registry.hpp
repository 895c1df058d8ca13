// registry.hpp - every algorithm gsdk runs, in one list: `gsdk run` finds a config's driver here, the
// config checks are handed it (run_experiment.hpp's parse_experiment), `gsdk list --algorithms` and the user
// guide's tables print its declarations. Adding an algorithm is adding its driver and one line in registry.cpp.
#pragma once

#include <string>
#include <vector>

namespace gsdk::host {

class Algorithm;
struct ExperimentConfig;

// In the order listings show them.
const std::vector<const Algorithm*>& algorithms();

// The driver of `name`, or nullptr.
const Algorithm* find_algorithm(const std::string& name);

std::vector<std::string> algorithm_names();

// The driver of a checked experiment (it was read against this list: its `algorithm` names one).
const Algorithm& driver_of(const ExperimentConfig& config);

} // namespace gsdk::host
