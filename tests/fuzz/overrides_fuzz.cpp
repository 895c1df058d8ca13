// overrides_fuzz.cpp - fuzzes `--set` overrides: each line of the input is one override, applied to a valid
// experiment before the schema check. Any input must end in a checked experiment or a ConfigError.
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/run_experiment.hpp"
#include "fuzz_check.hpp"

namespace {

// A small valid experiment, so that overrides reach every part of the schema from a document that passes.
constexpr const char* kBase = R"(game = "graveler"
algorithm = "playouts"
seed = 7
[params]
rolls = 231
[playouts]
count = 1000
[run]
device = "cpu"
threads = 1
[output]
file = "out.json"
)";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = gsdk::fuzz::as_text(data, size);
  std::vector<std::string> overrides;
  for (size_t begin = 0; begin <= text.size();) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    overrides.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  try {
    const gsdk::host::ExperimentConfig c = gsdk::host::parse_experiment(kBase, "base.toml", overrides);
    gsdk::fuzz::require(gsdk::host::find_algorithm(c.algorithm) != nullptr && c.settings != nullptr,
                        "a checked experiment has its driver and settings");
  } catch (const gsdk::host::ConfigError&) {
  }
  return 0;
}
