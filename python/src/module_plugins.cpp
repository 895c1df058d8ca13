// module_plugins.cpp - the plugin search of the Python module. The process is python3's, so the executable's folder
// of the CLI's search is replaced by the folders gsdk's executable has beside this module: gsdk/bin for the package
// pip installs (setup.py: gsdk/bin/gsdk, gsdk/bin/plugins/), <build>/bin for the module in <build>/python/gsdk/,
// P/bin for the module installed in P/lib/python3/dist-packages/gsdk/ (the .deb).
#include "module_plugins.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include "commands/command_line.hpp"
#include "plugin_loading/plugin_search_path.hpp"

namespace gsdk::python {

host::PluginCatalog load_module_catalog(const std::vector<std::string>& plugin_dirs) {
  const std::filesystem::path package_dir = boost::dll::this_line_location().parent_path().string();
  const std::filesystem::path build_bin = (package_dir / ".." / ".." / "bin").lexically_normal();
  const std::filesystem::path prefix_bin = (package_dir / ".." / ".." / ".." / ".." / "bin").lexically_normal();
  const std::filesystem::path wheel_bin = package_dir / "bin";
  // No options: GSDK_ALLOW_UNSAFE_PLUGINS alone decides, as for a gsdk command given no --allow-unsafe-plugin-dirs.
  host::PluginCatalog catalog(host::plugin_permission_check(host::po::variables_map{}));
  catalog.load_directories(host::plugin_search_path(plugin_dirs, {wheel_bin, build_bin, prefix_bin}));
  return catalog;
}

} // namespace gsdk::python
