// snake_file.cpp - reading snake files with nlohmann-json, each field checked; only regular files are read.
#include "tools/snake_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

namespace snake::checker {

namespace {

// document[field] as non-negative 32-bit integers; throws naming the field, or the first entry that is not one.
std::vector<uint32_t> unsigned_list(const nlohmann::json& document, const char* field) {
  if (!document.contains(field) || !document[field].is_array())
    throw std::runtime_error(std::string("needs '") + field + "', a list of non-negative integers");
  std::vector<uint32_t> values;
  for (size_t i = 0; i < document[field].size(); ++i) {
    const auto& value = document[field][i];
    if (!value.is_number_unsigned() || value.get<uint64_t>() > UINT32_MAX)
      throw std::runtime_error(std::string("'") + field + "' entry " + std::to_string(i) + " (" + value.dump() +
                               ") is not a non-negative 32-bit integer");
    values.push_back(value.get<uint32_t>());
  }
  return values;
}

Snake read_document(const nlohmann::json& document) {
  if (!document.is_object()) throw std::runtime_error("is not a JSON object");
  if (document.value("format", "") != "gsdk-snake") throw std::runtime_error("needs \"format\": \"gsdk-snake\"");
  if (!document.contains("dimension") || !document["dimension"].is_number_unsigned() ||
      document["dimension"].get<uint64_t>() > kLargestCheckedDimension)
    throw std::runtime_error("needs 'dimension', an integer in 1.." + std::to_string(kLargestCheckedDimension));
  Snake snake{document["dimension"].get<uint32_t>(), unsigned_list(document, "moves"),
              unsigned_list(document, "vertices")};
  if (document.contains("length") &&
      (!document["length"].is_number_unsigned() || document["length"].get<uint64_t>() != snake.moves.size()))
    throw std::runtime_error("'length' is " + document["length"].dump() + " but there are " +
                             std::to_string(snake.moves.size()) + " moves");
  return snake;
}

// What a file that is not a regular one is, for the message that refuses it.
std::string kind_of_non_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void refuse_non_regular(const std::string& path, mode_t mode) {
  throw std::runtime_error(path + ": is " + kind_of_non_regular(mode) +
                           "; expected a regular file (a snake document, format gsdk-snake)");
}

// The whole of the regular file `path`. Anything else is refused before it is read: a FIFO would block the open
// until a writer came, and a device such as /dev/zero would never end.
std::string read_regular_file(const std::string& path) {
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0) throw std::runtime_error(path + ": cannot open: " + std::generic_category().message(errno));
  if (!S_ISREG(named.st_mode)) refuse_non_regular(path, named.st_mode);
  // O_NONBLOCK: should a FIFO have replaced the file since the stat, the open returns instead of waiting, and
  // fstat sees what was opened.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::generic_category().message(errno));
  struct stat opened {};
  std::string text;
  int error = ::fstat(fd, &opened) != 0 ? errno : 0;
  if (error == 0 && S_ISREG(opened.st_mode)) {
    char buffer[1 << 16];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(got));
    if (got < 0) error = errno;
  }
  ::close(fd);
  if (error != 0) throw std::runtime_error(path + ": cannot read: " + std::generic_category().message(error));
  if (!S_ISREG(opened.st_mode)) refuse_non_regular(path, opened.st_mode);
  return text;
}

} // namespace

Snake parse_snake_document(std::string_view text) {
  try {
    return read_document(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(e.what());
  }
}

Snake read_snake_file(const std::string& path) {
  const std::string text = read_regular_file(path);
  try {
    return parse_snake_document(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

} // namespace snake::checker
