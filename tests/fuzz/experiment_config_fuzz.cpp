// experiment_config_fuzz.cpp - fuzzes an experiment file through the whole schema check (`gsdk run`'s path up to
// a checked experiment, the game's [params] excepted: those need a plugin). Any input must end in a checked
// experiment or a ConfigError, the one exception `gsdk run` turns into exit 2.
#include "algorithms/registry.hpp"
#include "algorithms/run_experiment.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const gsdk::host::ExperimentConfig c =
        gsdk::host::parse_experiment(std::string(gsdk::fuzz::as_text(data, size)), "fuzz.toml", {});
    gsdk::fuzz::require(gsdk::host::find_algorithm(c.algorithm) != nullptr && c.settings != nullptr,
                        "a checked experiment has its driver and settings");
  } catch (const gsdk::host::ConfigError&) {
  }
  return 0;
}
