// plugin_catalog.hpp - finding plugins on disk, loading them with Boost.DLL, negotiating the ABI.
//
// A plugin that cannot be used (not a shared object, no entry point, another ABI major, broken
// tables, a duplicate name) is refused with a message naming the file, what was expected and what
// was found; the other plugins still load.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <boost/dll/shared_library.hpp>

#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::host {

struct LoadedPlugin {
  boost::dll::shared_library library;
  core::PluginTables tables;
};

struct PluginProblem {
  std::string path;
  std::string message;
};

class PluginCatalog {
public:
  const LoadedPlugin* find(const std::string& name) const;
  const std::vector<std::unique_ptr<LoadedPlugin>>& plugins() const { return plugins_; }
  const std::vector<PluginProblem>& problems() const { return problems_; }
  std::string names() const; // comma-separated, for messages

  // Loads every *.so in dirs (each folder sorted by name; the first of a duplicated name wins).
  void load_directories(const std::vector<std::filesystem::path>& dirs);
  // Loads one file; on failure records a problem and returns nullptr.
  const LoadedPlugin* load_file(const std::filesystem::path& file);

private:
  std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
  std::vector<PluginProblem> problems_;
};

// Each --plugin-dir, then each GSDK_PLUGIN_PATH entry, then plugins/ beside the executable (a build
// folder), then ../lib/gsdk/plugins from the executable (an installed prefix).
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& extra_dirs);

} // namespace gsdk::host
