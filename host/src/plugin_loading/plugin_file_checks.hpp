// plugin_file_checks.hpp - what the host verifies of a plugin file before it hands the file to dlopen.
//
// dlopen trusts its input: a truncated copy is mapped and then touched past its end (SIGBUS inside the
// loader), a FIFO blocks the opening process forever, and a file it refuses has already run nothing only
// because it was refused early enough. So every plugin file is checked first, and a refused file never
// reaches dlopen, so no constructor of it runs:
//   - it is a regular file (a FIFO, socket, device or directory named x.so is refused from its stat, never
//     opened; the file is then opened without blocking and checked to be the same regular file);
//   - it is an ELF shared object (ET_DYN) of this build's class (64-bit), byte order and machine;
//   - its program header table, its section header table, every segment's bytes and every section's bytes
//     lie inside the file, so a partial copy is refused naming what it lacks.
// `gsdk check` and the catalog use this one implementation.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gsdk::host {

// Why `file` must not be loaded ("truncated: segment 3 ends at byte N, the file has M bytes", "not a regular
// file: a FIFO (named pipe) ..."), or nullopt when it may be handed to dlopen.
std::optional<std::string> plugin_file_problem(const std::filesystem::path& file);

} // namespace gsdk::host
