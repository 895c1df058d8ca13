// registry.hpp - every algorithm gsdk runs, in one list: `gsdk run` finds a config's driver here, the
// config checks take the table names from it, `gsdk list --algorithms` and the user guide's tables print
// its declarations. Adding an algorithm is adding its driver and one line in registry.cpp.
#pragma once

#include <string>
#include <vector>

namespace gsdk::host {

class Algorithm;

// In the order listings show them.
const std::vector<const Algorithm*>& algorithms();

// The driver of `name`, or nullptr.
const Algorithm* find_algorithm(const std::string& name);

std::vector<std::string> algorithm_names();

} // namespace gsdk::host
