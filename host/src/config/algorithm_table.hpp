// algorithm_table.hpp - what an experiment file needs of the algorithms it may name: each one's table (its name,
// its keys and those of [output], what does not apply to it) and the reader of that table into the algorithm's
// settings. The config reads no algorithm's table itself: it is handed the list (read_experiment_text), which is the
// algorithm registry's drivers (algorithms/algorithm.hpp: an Algorithm is an AlgorithmTable; run_experiment.hpp's
// parse_experiment hands them over).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/config_keys.hpp"
#include "config/config_section.hpp"

namespace gsdk::host {

// An algorithm's settings, read from its table (and its own [output] keys) by its driver.
struct AlgorithmSettings {
  virtual ~AlgorithmSettings() = default;
};

// The listing of an algorithm: its name, what it does, and the keys of its table and of [output].
struct AlgorithmInfo {
  std::string name;    // also the name of its table: algorithm = "nmcs" reads [nmcs]
  std::string summary; // one line
  std::vector<KeyDoc> keys;
  std::vector<KeyDoc> output_keys; // beyond [output] file, plot and events
  // Empty: the algorithm reads [run]. Else the reason [run] does not apply, given when a config has one.
  std::string no_run_table;
  // Empty: the algorithm honours [output] plot / --plot (events). Else the reason it does not, given when a config or
  // the command line asks for one: strict, no key silently ignored.
  std::string no_plot = {};
  std::string no_events = {};
};

class AlgorithmTable {
public:
  virtual ~AlgorithmTable() = default;

  virtual const AlgorithmInfo& info() const = 0;

  // Reads the algorithm's table (`section`, keys already checked against info().keys) and its keys of
  // [output] (`output`, null when the config has none). Throws ConfigError.
  virtual std::shared_ptr<const AlgorithmSettings> read(const ConfigSection& section,
                                                        const ConfigSection* output) const = 0;
};

// The algorithms an experiment may name, in the order messages list them.
using AlgorithmTables = std::vector<const AlgorithmTable*>;

} // namespace gsdk::host
