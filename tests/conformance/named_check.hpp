// named_check.hpp - one conformance check, chosen by its name, run on one test plugin under the given parameters
// (with the GPUs this machine has): what the tests of single checks against deliberately broken games run.
#pragma once

#include <stdexcept>
#include <string>

#include "conformance/check_registry.hpp"
#include "conformance/run_check.hpp"
#include "gpu.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace gsdk::test {

// `plugin_file` in bin/test_plugins/valid (e.g. "test_tree.so"); throws when it does not load or the name does not
// select exactly one check.
inline host::conformance::CheckResult run_named_check(const std::string& plugin_file, const toml::table& params,
                                                      const char* check_name) {
  host::PluginCatalog catalog;
  const host::LoadedPlugin* plugin = catalog.load_file(test_plugin_dir("valid") / plugin_file);
  if (!plugin) throw std::runtime_error(plugin_file + " did not load");
  const auto resolved = host::resolve_params(*plugin->tables.game, params);
  host::conformance::CheckSubject subject;
  subject.plugin = plugin;
  subject.parameters = resolved.values;
  std::string why;
  subject.gpus = gpus(&why);
  subject.no_gpu_reason = why;
  const auto selected = host::conformance::select_checks(check_name);
  if (selected.size() != 1) throw std::runtime_error(std::string("no single check named ") + check_name);
  return host::conformance::run_check(*selected.front(), subject);
}

} // namespace gsdk::test
