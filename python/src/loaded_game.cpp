// loaded_game.cpp - a named game with its parameters, loaded as the CLI loads one (loaded_game.hpp).
#include "loaded_game.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "algorithms/run_experiment.hpp"
#include "config/config_error.hpp"
#include "dict_config.hpp"
#include "module_plugins.hpp"
#include "python_errors.hpp"

namespace gsdk::python {

LoadedGame::LoadedGame(const std::string& game, const std::string& params_json,
                       const std::vector<std::string>& plugin_dirs, const std::string& who)
    : catalog_(load_module_catalog(plugin_dirs)) {
  try {
    plugin_ = &host::require_plugin(catalog_, game, who);
  } catch (const host::ConfigError& e) {
    throw PluginError(e.what());
  }
  // The parameters go through the CLI's checks: {"params": {...}} as TOML text, located in "params:line:column".
  const std::string text = dict_as_toml(params_json);
  const toml::table document = toml::parse(std::string_view(text), std::string_view("params"));
  const toml::table* params = document["params"].as_table();
  params_ = host::resolve_params(*plugin_->tables.game, params ? *params : toml::table{});
  try {
    instance_ = std::make_unique<core::GameInstance>(plugin_->tables, params_.values);
  } catch (const std::invalid_argument& e) {
    throw host::ConfigError(fmt::format("params: {}", e.what()));
  }
}

} // namespace gsdk::python
