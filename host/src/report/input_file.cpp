// input_file.cpp - opens a file to read and keeps errno's words when it cannot.
#include "report/input_file.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace gsdk::host {

std::string system_reason(int error) {
  return std::generic_category().message(error);
}

InputFile open_input_file(const std::string& path) {
  InputFile file;
  errno = 0;
  file.stream.open(path, std::ios::binary);
  if (!file.stream) {
    // errno is read before anything else can change it; a failure that set none still says what failed.
    const int error = errno;
    file.failure = error != 0 ? system_reason(error) : "the stream could not be opened";
    return file;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    file.stream.close();
    file.failure = "is a directory, not a file";
  }
  return file;
}

} // namespace gsdk::host
