// plugin_search_path.hpp - the plugin search of a process that is not gsdk's executable (the Python module, in
// python3's process), which names the folders gsdk's executable has in its build or prefix.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gsdk::host {

// plugin_search_path(extra_dirs) (plugin_catalog.hpp) with `executable_dirs` in place of the folder of this
// process's executable: each --plugin-dir, each GSDK_PLUGIN_PATH entry, then for each executable folder E,
// E/plugins (a build folder) and E/../lib/gsdk/plugins (an installed prefix).
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& extra_dirs,
                                                      const std::vector<std::filesystem::path>& executable_dirs);

} // namespace gsdk::host
