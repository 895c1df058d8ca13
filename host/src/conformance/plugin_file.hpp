// plugin_file.hpp - what `gsdk check` verifies of a plugin file before it loads it in its own process: that
// the file holds everything its ELF headers describe (the dynamic loader maps a truncated file and then dies
// of SIGBUS touching the missing pages), and that loading it in a child process neither crashes nor hangs
// (a plugin's static constructors run at load time).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gsdk::host::conformance {

// Why the 64-bit ELF file cannot be complete ("truncated: its ELF headers describe ... bytes, the file has
// ..."), or nullopt (complete, or not a 64-bit ELF file: the loader itself says what is wrong with those).
std::optional<std::string> truncated_elf(const std::filesystem::path& file);

// Loads `file` with the host's loader in a child process limited to `timeout_seconds`; returns how the child
// died when loading killed it (a crash in a static constructor, SIGBUS) or did not finish, else nullopt (the
// file loaded, or the loader refused it: loading it here is safe, and says why).
std::optional<std::string> loading_kills(const std::filesystem::path& file, double timeout_seconds);

} // namespace gsdk::host::conformance
