// plugin_catalog.hpp - finding plugins on disk, loading them with Boost.DLL, negotiating the ABI.
//
// A plugin that cannot be used (not a regular file, not an ELF shared object of this machine, truncated,
// no entry point, another ABI major, broken tables, a duplicate name) is refused with a message naming the
// file, what was expected and what was found; the other plugins still load. A file that fails the checks
// before dlopen (plugin_file_checks.hpp), or that another user could have changed (plugin_permissions.hpp),
// is never opened by the dynamic loader, so none of its code runs.
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
  bool folder = false; // a plugin folder refused with every file in it
};

// Whether plugin files and folders that other users could change are refused (plugin_permissions.hpp).
enum class PermissionCheck { enforce, skip };

class PluginCatalog {
public:
  explicit PluginCatalog(PermissionCheck permissions = PermissionCheck::enforce) : permissions_(permissions) {}

  const LoadedPlugin* find(const std::string& name) const;
  const std::vector<std::unique_ptr<LoadedPlugin>>& plugins() const { return plugins_; }
  const std::vector<PluginProblem>& problems() const { return problems_; }
  std::vector<std::string> game_names() const; // of the loaded plugins, in load order
  std::string names() const;                   // comma-separated, for messages

  // Loads every *.so in dirs (each folder sorted by name; the first of a duplicated name wins). A folder
  // that fails the permission rule is recorded as one problem and none of its files is loaded.
  void load_directories(const std::vector<std::filesystem::path>& dirs);
  // Loads one file (its folder and it checked as load_directories would); on failure records a problem and
  // returns nullptr.
  const LoadedPlugin* load_file(const std::filesystem::path& file);

private:
  // Loads a file of a folder that passed the permission rule.
  const LoadedPlugin* load_file_of_checked_folder(const std::filesystem::path& file);

  PermissionCheck permissions_;
  std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
  std::vector<PluginProblem> problems_;
};

// Each --plugin-dir, then each GSDK_PLUGIN_PATH entry, then plugins/ beside the executable (a build
// folder), then ../lib/gsdk/plugins from the executable (an installed prefix).
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& extra_dirs);

} // namespace gsdk::host
