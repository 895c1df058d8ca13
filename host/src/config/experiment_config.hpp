// experiment_config.hpp - the TOML experiment file: strict schema, --set overrides, clear errors.
//
//   game = "graveler"              # plugin/game name (required)
//   algorithm = "playouts"         # what to run (required): the name of an algorithm the file is read against
//   seed = 42                      # default 1
//   name = "graveler-1e9"          # a file name (results/<name>.json); default: the file's stem
//   [params]                       # game parameters, validated against the plugin's declarations
//   [<algorithm>]                  # the algorithm's own table ([playouts], [perft], [nmcs], ...): its driver
//                                  # declares and reads it (`gsdk list --algorithms` lists every key)
//
// The algorithms are handed in (algorithm_table.hpp): the config knows none of them. run_experiment.hpp's
// load_experiment and parse_experiment read a file against the algorithm registry.
//   [run] device ("auto" | "cpu" | "cuda" | "all"), threads, gpus, streams, simd
//   [output] file, plot, events, and the algorithm's own output keys
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "config/algorithm_table.hpp"
#include "config/config_error.hpp"
#include "config/run_settings.hpp"

namespace gsdk::host {

struct ExperimentConfig {
  std::string file;
  std::string name;
  std::string game;
  std::string algorithm; // the name of one of the algorithms it was read against
  // Of the `algorithm` key: where an error about the algorithm's settings as a whole points (a search the game
  // refuses).
  toml::source_region algorithm_where{};
  uint64_t seed = 1;
  toml::table params; // validated later against the game's declarations
  RunSettings run;
  std::string output_file; // empty: results/<name>.json
  std::string plot_file;
  std::string events_file;
  std::shared_ptr<const AlgorithmSettings> settings; // read by the algorithm from its table
  toml::table raw;                                   // the whole document after overrides, for the results file

  // The driver's settings as their type (the driver's header declares it), for code outside the drivers (the
  // tests); a driver is handed its own typed (algorithms/typed_driver.hpp).
  template <typename Settings> const Settings& settings_as() const { return dynamic_cast<const Settings&>(*settings); }
};

// A change a command-line option makes (--device cpu: "run.device=\"cpu\""), applied after the --set
// overrides, and where it came from for messages (command_line_origin("--device", "cpu")).
struct OptionOverride {
  std::string text;
  std::string origin;
};

// Reads the experiment file `path`: parses it, applies overrides ("section.key=value", value in TOML syntax; bare
// words are taken as strings), then the options' overrides, and validates everything but [params], its algorithm's
// table by that algorithm, one of `algorithms`. Throws ConfigError.
ExperimentConfig read_experiment_file(const std::string& path, const AlgorithmTables& algorithms,
                                      const std::vector<std::string>& overrides,
                                      const std::vector<OptionOverride>& options = {});

// The same of an experiment document made in memory, its values located where they came from (a command's options:
// command_line_document.hpp), named `source_name` in messages that have no value to point at.
ExperimentConfig read_experiment_document(toml::table document, const std::string& source_name,
                                          const AlgorithmTables& algorithms);

// The same of an experiment given as text, named `source_name` in messages.
ExperimentConfig read_experiment_text(const std::string& text, const std::string& source_name,
                                      const AlgorithmTables& algorithms, const std::vector<std::string>& overrides,
                                      const std::vector<OptionOverride>& options = {});

} // namespace gsdk::host
