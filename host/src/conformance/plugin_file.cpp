// plugin_file.cpp - the trial load of a plugin file in a child process.
#include "conformance/plugin_file.hpp"

#include "conformance/child_process.hpp"

namespace gsdk::host::conformance {

std::optional<std::string> loading_kills(const std::filesystem::path& file, double timeout_seconds,
                                         PermissionCheck permissions) {
  const ChildRun run = run_in_child(
      [&] {
        PluginCatalog catalog(permissions);
        catalog.load_file(file);
        return std::string("loaded");
      },
      timeout_seconds);
  if (run.end == ChildRun::End::returned) return std::nullopt;
  return "loading it " + describe_ending(run, timeout_seconds);
}

} // namespace gsdk::host::conformance
