// module.cpp - gsdk._gsdk, the extension module under the gsdk package (python/gsdk/__init__.py): the CLI's listing,
// experiment runs and their errors, over the host library the gsdk executable links. Documents cross as JSON text,
// which the package turns into dicts; errors cross as the package's exception classes with the CLI's messages.
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "agent_api.hpp"
#include "algorithms/run_experiment.hpp"
#include "algorithms/run_files.hpp"
#include "commands/plugin_listing.hpp"
#include "config/config_error.hpp"
#include "dict_config.hpp"
#include "game_api.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "interruptible_call.hpp"
#include "module_plugins.hpp"
#include "numpy_buffers.hpp"
#include "python_errors.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"
#include "vector_env.hpp"

namespace gsdk::python {

namespace {

namespace py = pybind11;

std::string list_json() {
  const host::PluginCatalog catalog = load_module_catalog();
  return host::listing_json(catalog, host::find_cuda()).dump();
}

// What gsdk.run() adds to the config, as the CLI's --device, --threads and --seed do (named the same in messages).
std::vector<host::OptionOverride> option_overrides(const std::optional<std::string>& device,
                                                   const std::optional<uint64_t>& threads,
                                                   const std::optional<uint64_t>& seed) {
  std::vector<host::OptionOverride> options;
  if (device)
    options.push_back({"run.device=\"" + *device + "\"", host::command_line_origin("device=", "'" + *device + "'")});
  if (threads) {
    const std::string text = std::to_string(*threads);
    options.push_back({"run.threads=" + text, host::command_line_origin("threads=", text)});
  }
  if (seed) {
    const std::string text = std::to_string(*seed);
    options.push_back({"seed=" + text, host::command_line_origin("seed=", text)});
  }
  return options;
}

// The game's plugin, or a PluginError with the CLI's message (located at the config's game key, naming the
// loaded games and the refused files).
void require_game(const host::ExperimentConfig& config, const host::PluginCatalog& catalog) {
  if (catalog.find(config.game)) return;
  const toml::node* game = config.raw.get("game");
  try {
    host::require_plugin(catalog, config.game, game ? host::located(game->source(), "") : "");
  } catch (const host::ConfigError& e) {
    throw PluginError(e.what());
  }
}

// Runs an experiment read from `path` (a file) or from `dict_json` (a dict's JSON; `source` names it in errors), as
// `gsdk run` does; returns the results document's JSON text. `out`: where to write the results file, if anywhere.
std::string run_json(const std::optional<std::string>& path, const std::optional<std::string>& dict_json,
                     const std::string& source, const std::vector<std::string>& overrides,
                     const std::optional<std::string>& device, const std::optional<uint64_t>& threads,
                     const std::optional<uint64_t>& seed, const std::optional<std::string>& out) {
  const std::vector<host::OptionOverride> options = option_overrides(device, threads, seed);
  const host::ExperimentConfig config =
      path ? host::load_experiment(*path, overrides, options)
           : host::parse_experiment(dict_as_toml(*dict_json), source, overrides, options);
  if (out) host::check_run_files(config, *out, config.plot_file, "");
  const host::PluginCatalog catalog = load_module_catalog();
  require_game(config, catalog);

  core::StopRequest stop;
  host::RunOptions run_options;
  run_options.progress.shown = false;
  run_options.plot = config.plot_file;
  run_options.stop = &stop;
  host::ExperimentRun run;
  try {
    call_interruptibly([&] { run = host::run_experiment(config, catalog, run_options); }, stop);
  } catch (const py::error_already_set&) {
    // Interrupted: what completed is still written where the results were asked for, as the CLI does on SIGINT.
    if (out && run.outcome) host::write_json_or_print(*out, run.results);
    throw;
  }
  if (out && !host::write_json_or_print(*out, run.results))
    throw host::OutputError(fmt::format("{}: the results file could not be written", *out));
  return run.results.dump();
}

} // namespace

PYBIND11_MODULE(_gsdk, m) {
  m.doc() = "gsdk's host library (use the gsdk package, not this module)";
  m.attr("__version__") = GSDK_VERSION;
  // Local to this module, so that other pybind11 modules' exceptions keep their own translation. The translator of
  // the last one registered is tried first: the subclasses before std::runtime_error, every other error of a run.
  const py::exception<std::runtime_error>& error = py::register_local_exception<std::runtime_error>(m, "Error");
  py::register_local_exception<host::ConfigError>(m, "ConfigError", error.ptr());
  py::register_local_exception<PluginError>(m, "PluginError", error.ptr());
  py::register_local_exception<host::OutputError>(m, "OutputError", error.ptr());
  // Too large for the machine's free memory, refused before allocating: Python's MemoryError, saying by how much.
  py::register_local_exception<core::MemoryRefusal>(m, "MemoryRefusal", PyExc_MemoryError);
  m.def("list_json", &list_json, "the document of `gsdk list --json`, as JSON text");
  m.def("run_json", &run_json, py::arg("path"), py::arg("dict_json"), py::arg("source"), py::arg("overrides"),
        py::arg("device"), py::arg("threads"), py::arg("seed"), py::arg("out"),
        "runs an experiment as `gsdk run` does; returns the results document as JSON text");
  bind_numpy_buffers(m);
  bind_vector_env(m);
  bind_game_api(m);
  bind_agent_api(m);
}

} // namespace gsdk::python
