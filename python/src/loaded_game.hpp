// loaded_game.hpp - a game instance as the Python module names one: a game name, its parameters as a dict and the
// plugin folders to search first (plugin_dir=), loaded through the CLI's plugin search and parameter checks. The
// catalog (the plugin's code), the resolved parameters and the instance live together, as long as anything that
// refers to them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::python {

class LoadedGame {
public:
  // params_json: {"params": {...}} as json.dumps writes it; errors are located in "params:line:column". `who` starts
  // the message of an unknown game ("VectorEnv: ", "load_game: "). Throws PluginError or host::ConfigError.
  LoadedGame(const std::string& game, const std::string& params_json, const std::vector<std::string>& plugin_dirs,
             const std::string& who);
  LoadedGame(const LoadedGame&) = delete;
  LoadedGame& operator=(const LoadedGame&) = delete;

  const core::GameInstance& instance() const { return *instance_; }
  const host::LoadedPlugin& plugin() const { return *plugin_; }

private:
  host::PluginCatalog catalog_;
  const host::LoadedPlugin* plugin_ = nullptr;
  host::ResolvedParams params_;
  std::unique_ptr<core::GameInstance> instance_;
};

} // namespace gsdk::python
