// plugin_file.hpp - the trial load `gsdk check` makes of a plugin file before it loads the file in its own
// process: a plugin's static constructors run at load time, so loading it in a child shows whether they crash
// or hang. The checks of the file itself (regular file, ELF headers of this machine, nothing truncated) are the
// catalog's, before any dlopen (plugin_loading/plugin_file_checks.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::host::conformance {

// Loads `file` with the host's loader in a child process limited to `timeout_seconds`; returns how the child
// died when loading killed it (a crash in a static constructor, SIGBUS) or did not finish, else nullopt (the
// file loaded, or the loader refused it: loading it here is safe, and says why).
std::optional<std::string> loading_kills(const std::filesystem::path& file, double timeout_seconds,
                                         PermissionCheck permissions);

} // namespace gsdk::host::conformance
