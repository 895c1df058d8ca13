// registry.cpp - the list of algorithm drivers.
#include "algorithms/registry.hpp"

#include <stdexcept>

#include "algorithms/algorithm.hpp"
#include "algorithms/match/match_algorithm.hpp"
#include "algorithms/nested/beam_algorithm.hpp"
#include "algorithms/nested/nmcs_algorithm.hpp"
#include "algorithms/nested/nrpa_algorithm.hpp"
#include "algorithms/perft/perft_algorithm.hpp"
#include "algorithms/playouts/playouts_algorithm.hpp"
#include "algorithms/qlearning/qlearning_algorithm.hpp"
#include "config/experiment_config.hpp"

namespace gsdk::host {

const std::vector<const Algorithm*>& algorithms() {
  static const std::vector<const Algorithm*> all = {&playouts_algorithm(), &perft_algorithm(), &qlearning_algorithm(),
                                                    &match_algorithm(),    &nmcs_algorithm(),  &nrpa_algorithm(),
                                                    &beam_algorithm()};
  return all;
}

const Algorithm* find_algorithm(const std::string& name) {
  for (const Algorithm* a : algorithms())
    if (a->info().name == name) return a;
  return nullptr;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const Algorithm* a : algorithms()) names.push_back(a->info().name);
  return names;
}

const Algorithm& driver_of(const ExperimentConfig& config) {
  if (const Algorithm* driver = find_algorithm(config.algorithm)) return *driver;
  throw std::logic_error("an experiment of no registered algorithm: '" + config.algorithm + "'");
}

} // namespace gsdk::host
