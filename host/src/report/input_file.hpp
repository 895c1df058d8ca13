// input_file.hpp - opening a file gsdk reads (an experiment, a results file, a checkpoint, a shard, a sequence
// file), with the system's reason when it cannot be: "No such file or directory" tells a typo from a permission.
#pragma once

#include <fstream>
#include <string>

namespace gsdk::host {

// The system's words for an errno value ("Permission denied"); thread-safe, unlike std::strerror.
std::string system_reason(int error);

// A file opened to read, or why not.
struct InputFile {
  std::ifstream stream;
  std::string failure; // empty when open: else the system's reason, or "is a directory"
};

// Opens `path` to read (binary). A folder opens on Linux and fails only at the first read, so it is refused here by
// name. The caller says what the file was for: "{path}: cannot open the results file: {failure}".
InputFile open_input_file(const std::string& path);

} // namespace gsdk::host
