// checkpoint_file.cpp - reading, checking and atomically saving checkpoint files (checkpoint_file.hpp).
#include "checkpoint/checkpoint_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/runtime/digest.hpp"

namespace gsdk::host {

namespace {

constexpr const char* kFormat = "gsdk-checkpoint";

// "identity.config.playouts.count: checkpoint 100, this run 200", one line per difference, from the JSON
// patch that turns the saved identity into this run's.
std::string describe_differences(const nlohmann::json& saved, const nlohmann::json& current) {
  std::string lines;
  for (const auto& op : nlohmann::json::diff(saved, current)) {
    const nlohmann::json::json_pointer at(op["path"].get<std::string>());
    std::string name = op["path"].get<std::string>();
    std::replace(name.begin(), name.end(), '/', '.');
    const std::string before = saved.contains(at) ? saved[at].dump() : "(none)";
    const std::string after = current.contains(at) ? current[at].dump() : "(none)";
    lines += fmt::format("\n  {}: checkpoint {}, this run {}", name.substr(1), before, after);
  }
  return lines;
}

[[noreturn]] void fail_io(const std::string& what, const std::string& path) {
  throw std::runtime_error(fmt::format("{}: {} failed: {}", path, what, std::strerror(errno)));
}

// Writes `text` to `path` through a temporary file beside it: written, fsynced, closed, renamed, and the folder
// fsynced so the rename itself survives a crash. Hand-written because no Debian library we use does the whole
// sequence with each step's error checked.
void replace_file_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  const std::string temporary = fmt::format("{}.tmp.{}", path, static_cast<long>(getpid()));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_io("creating the checkpoint's temporary file", temporary);
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      ::unlink(temporary.c_str());
      fail_io("writing the checkpoint", temporary);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    ::unlink(temporary.c_str());
    fail_io("syncing the checkpoint", temporary);
  }
  if (::close(fd) != 0) {
    ::unlink(temporary.c_str());
    fail_io("closing the checkpoint", temporary);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    fail_io("renaming the checkpoint into place", path);
  }
  const std::string folder = target.has_parent_path() ? target.parent_path().string() : ".";
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return; // the file is in place; only its survival of a crash is less certain
  ::fsync(dir);
  ::close(dir);
}

} // namespace

CheckpointFile::CheckpointFile(std::string path, nlohmann::json identity)
    : path_(std::move(path)), identity_(std::move(identity)) {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) return;
  if (!std::filesystem::is_regular_file(path_, ec))
    throw CheckpointMismatch(fmt::format("{}: the checkpoint is not a regular file", path_));
  std::ifstream in(path_);
  nlohmann::json saved;
  try {
    saved = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointMismatch(fmt::format("{}: not a gsdk checkpoint (invalid JSON: {})", path_, e.what()));
  }
  if (!saved.is_object() || saved.value("format", "") != kFormat)
    throw CheckpointMismatch(fmt::format("{}: not a gsdk checkpoint (no \"format\": \"{}\")", path_, kFormat));
  if (saved.value("version", 0) != kCheckpointFormatVersion)
    throw CheckpointMismatch(fmt::format("{}: checkpoint format version {}, this gsdk reads version {}", path_,
                                         saved["version"].dump(), kCheckpointFormatVersion));
  if (!saved.contains("identity") || !saved.contains("progress") || !saved["progress"].is_object())
    throw CheckpointMismatch(fmt::format("{}: the checkpoint has no identity or progress", path_));
  if (saved["identity"] != identity_)
    throw CheckpointMismatch(fmt::format("{}: the checkpoint belongs to another run; what differs:{}\n  (use another "
                                         "--checkpoint file, or delete this one to start afresh)",
                                         path_, describe_differences(saved["identity"], identity_)));
  resumed_ = std::move(saved["progress"]);
}

void CheckpointFile::save(const nlohmann::json& progress, bool complete) {
  const nlohmann::json document = {{"format", kFormat},
                                   {"version", kCheckpointFormatVersion},
                                   {"identity", identity_},
                                   {"complete", complete},
                                   {"progress", progress}};
  const std::lock_guard lock(save_mutex_);
  replace_file_atomically(path_, document.dump(1) + "\n");
}

std::string file_sha1(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the file to fingerprint it", path));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return core::sha1_digest(bytes.str());
}

} // namespace gsdk::host
