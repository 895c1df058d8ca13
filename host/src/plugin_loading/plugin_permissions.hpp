// plugin_permissions.hpp - whether someone other than the user could have put code into a plugin.
//
// A plugin is native code that runs with the full rights of whoever runs gsdk. A plugin file or a plugin folder
// that another user can write is therefore a way for that user to run code as this one, so the catalog refuses:
//   - a plugin file writable by its group or by others, or owned by a user other than the current (effective)
//     user and root;
//   - a folder plugins are loaded from (with every file in it) when it is owned by a user other than the current
//     one and root, or writable by its group or others without the sticky bit. With the sticky bit (as /tmp has)
//     others may add files but not rename, replace or delete ours, and a file they add is theirs, which the file
//     rule refuses.
// Symbolic links are followed: the rule applies to what they name. The folder holding a plugin is checked, not the
// folders above it (a writable parent lets others rename the plugin folder; the user owns that choice of place).
// --allow-unsafe-plugin-dirs or GSDK_ALLOW_UNSAFE_PLUGINS=1 turns this refusal off for those who mean it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gsdk::host {

// What a refusal tells the user to do if they trust the file anyway.
inline constexpr const char* kUnsafePluginOverride =
    "pass --allow-unsafe-plugin-dirs or set GSDK_ALLOW_UNSAFE_PLUGINS=1 if you mean it";

// Why the plugin file or plugin folder at `path` could have been changed by another user ("writable by others
// (mode 0777): anyone could replace a plugin; pass ..."), or nullopt when only the user or root can change it.
std::optional<std::string> unsafe_permissions(const std::filesystem::path& path);

} // namespace gsdk::host
