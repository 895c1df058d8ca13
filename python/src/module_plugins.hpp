// module_plugins.hpp - the plugins the Python module loads: the CLI's search (GSDK_PLUGIN_PATH, then the plugins of
// the gsdk build or prefix this module belongs to), through the host's plugin catalog.
#pragma once

#include <string>
#include <vector>

#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::python {

// Loads every plugin of the search path, after the folders of plugin_dirs (as --plugin-dir: first, so that a game
// there replaces a shipped one of the same name). Plugin files other users could change are refused as `gsdk` refuses them,
// unless GSDK_ALLOW_UNSAFE_PLUGINS=1; refused files are in the catalog's problems().
host::PluginCatalog load_module_catalog(const std::vector<std::string>& plugin_dirs = {});

} // namespace gsdk::python
