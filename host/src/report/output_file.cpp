// output_file.cpp - atomic whole-file writes, checked output paths and progressively written streams, on
// POSIX calls: the C++ streams hide the errors of flush and close, and std::filesystem has no fsync or
// exclusive creation, which an atomic replace needs.
#include "report/output_file.hpp"
#include "report/input_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace gsdk::host {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxNameBytes = NAME_MAX;      // one component of a path
constexpr size_t kStreamBufferBytes = 1u << 20; // a stream writes at once when this much waits
constexpr auto kStreamFlushInterval = std::chrono::seconds(1);

OutputError system_error(const std::string& path, const std::string& doing, int error) {
  return OutputError(fmt::format("{}: {}: {}", path, doing, system_reason(error)));
}

// Where documents written to "-" go: the standard output the process started with. Once check_output_path("-") has
// moved the report to the standard error, this is a descriptor of its own for that standard output.
std::atomic<int> document_output = STDOUT_FILENO;

// Gives the standard output to documents alone: what the command prints for people goes to the standard error
// from now on (descriptor 1 becomes a copy of 2), so a document piped to another program is never mixed with it.
void reserve_standard_output() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::fflush(stdout);
    const int kept = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (kept < 0) return; // no descriptor to spare: documents and the report then share the standard output
    if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
      ::close(kept);
      return;
    }
    document_output = kept;
  });
}

// Writes all of `data`, through partial writes and interruptions. Returns 0 or the errno of the failure.
int write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (written == 0) return EIO;
    data += written;
    size -= static_cast<size_t>(written);
  }
  return 0;
}

// Creates a new file beside `target` under a name no other process or thread uses (the target's name cut
// so that the temporary's stays within a name's 255 bytes). Returns its descriptor or -errno.
int create_temporary_beside(const fs::path& target, fs::path& temporary) {
  static std::atomic<uint64_t> counter{0};
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string stem = target.filename().string().substr(0, 200);
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = folder / fmt::format(".{}.{}.{}.tmp", stem, ::getpid(), counter.fetch_add(1));
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd >= 0 || errno != EEXIST) return fd >= 0 ? fd : -errno;
  }
  return -EEXIST;
}

// Removes the temporaries of `target` (".<name>.<pid>.<n>.tmp") that a process killed while writing left behind
// (SIGKILL runs no clean-up): those of a process that no longer exists. A live process's, this one's included, are
// kept. Looked at once per target and process: a checkpoint saved every minute costs one listing of its folder.
void remove_stale_temporaries(const fs::path& target) {
  static std::mutex mutex;
  static std::set<std::string> looked_at;
  {
    const std::lock_guard lock(mutex);
    if (!looked_at.insert(target.string()).second) return;
  }
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on the concatenation of the three.
  std::string prefix(1, '.');
  prefix.append(target.filename().string(), 0, 200);
  prefix.push_back('.');
  std::error_code ec;
  for (fs::directory_iterator entry(folder, ec), end; !ec && entry != end; entry.increment(ec)) {
    const std::string name = entry->path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".tmp")) continue;
    const std::string rest = name.substr(prefix.size());
    const size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string::npos || rest.find_first_not_of("0123456789") != dot) continue;
    const pid_t pid = static_cast<pid_t>(std::stoll(rest.substr(0, dot)));
    if (pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) fs::remove(entry->path(), ec);
  }
}

// The file a path names once a symbolic link at its end is followed: replacing the link itself would
// leave the file it points to unchanged.
fs::path followed(const std::string& path) {
  std::error_code ec;
  if (!fs::is_symlink(path, ec)) return path;
  const fs::path target = fs::weakly_canonical(path, ec);
  return ec ? fs::path(path) : target;
}

// A device or FIFO (/dev/null, /dev/stdout) cannot be replaced by a rename: it is written in place.
void write_in_place(const std::string& path, const fs::path& target, const std::string& content) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw system_error(path, "cannot write", errno);
  const int error = write_all(fd, content.data(), content.size());
  const int closed = ::close(fd) == 0 ? 0 : errno;
  if (error != 0 || closed != 0) throw system_error(path, "cannot write", error != 0 ? error : closed);
}

// After the rename, the folder's entry is made durable too; a file system that cannot sync a folder
// (some network ones) still has the file written, so failures here are not errors.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The folders from `folder` up that do not exist yet, deepest first.
std::vector<fs::path> missing_folders(const fs::path& folder) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = folder; !p.empty() && !fs::exists(fs::symlink_status(p, ec)); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  return missing;
}

// Why no file can be written beside `target` in `folder` (created if missing), or "" when one can: a file is
// created there and removed.
std::string folder_problem(const fs::path& target, const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return fmt::format("cannot create directory {}: {}", folder.string(), ec.message());
  if (!fs::is_directory(folder, ec))
    return fmt::format("cannot create directory {}: {}", folder.string(), system_reason(ENOTDIR));
  fs::path probe;
  const int fd = create_temporary_beside(target, probe);
  if (fd < 0) return fmt::format("cannot write in directory {}: {}", folder.string(), system_reason(-fd));
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

} // namespace

bool is_standard_output(const std::string& path) {
  return path == "-";
}

std::string output_name(const std::string& path) {
  return is_standard_output(path) ? "the standard output" : path;
}

void refuse_standard_output(const std::string& path, const std::string& what, const std::string& why) {
  if (is_standard_output(path)) throw OutputError(fmt::format("-: {} cannot be the standard output: {}", what, why));
}

void write_file(const std::string& path, const std::string& content) {
  if (path.empty()) throw OutputError("an output file's path is empty");
  if (is_standard_output(path)) {
    std::fflush(stdout); // what the report printed before comes first when both share the standard output
    if (const int error = write_all(document_output, content.data(), content.size()); error != 0)
      throw system_error("the standard output", "cannot write", error);
    return;
  }
  const fs::path target = followed(path);
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (fs::is_directory(status)) throw OutputError(fmt::format("{}: cannot write: is a directory", path));
  if (fs::exists(status) && !fs::is_regular_file(status)) return write_in_place(path, target, content);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec); // open() reports a failure

  fs::path temporary;
  const int fd = create_temporary_beside(target, temporary);
  if (fd < 0) throw system_error(path, "cannot write", -fd);
  int error = 0;
  // The replacement keeps the permissions of the file it replaces.
  if (fs::is_regular_file(status)) error = ::fchmod(fd, static_cast<mode_t>(status.permissions())) == 0 ? 0 : errno;
  if (error == 0) error = write_all(fd, content.data(), content.size());
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temporary.c_str(), target.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    throw system_error(path, "cannot write", error);
  }
  sync_folder(target.parent_path());
  remove_stale_temporaries(target);
}

void check_output_path(const std::string& path) {
  if (path.empty()) throw OutputError("an output file's path is empty");
  if (is_standard_output(path)) return reserve_standard_output();
  if (path.size() >= PATH_MAX)
    throw OutputError(fmt::format("{}...: the path is {} bytes; at most {} are allowed", path.substr(0, 60),
                                  path.size(), PATH_MAX - 1));
  for (const fs::path& part : fs::path(path))
    if (part.native().size() > kMaxNameBytes)
      throw OutputError(fmt::format("{}: the name '{}...' is {} bytes; a file or folder name is at most {}", path,
                                    part.native().substr(0, 40), part.native().size(), kMaxNameBytes));
  const fs::path target = followed(path);
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (fs::is_directory(status)) throw OutputError(fmt::format("{}: is a directory, not a file", path));
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or FIFO is written in place; a FIFO with no reader yet (ENXIO) may get one later.
    const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 && errno != ENXIO) throw system_error(path, "cannot write", errno);
    if (fd >= 0) ::close(fd);
    return;
  }
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::vector<fs::path> created = missing_folders(folder);
  const std::string problem = folder_problem(target, folder);
  // The folders made for the probe go again: a command refused later, for another reason, leaves nothing
  // behind, and the write makes them anew.
  for (const fs::path& made : created) fs::remove(made, ec);
  if (!problem.empty()) throw OutputError(fmt::format("{}: {}", path, problem));
}

void refuse_input_as_output(const std::string& output, const std::string& input) {
  std::error_code ec;
  if (!is_standard_output(output) && !output.empty() && !input.empty() && fs::equivalent(output, input, ec))
    throw OutputError(
        fmt::format("{}: is the input {}; an output must not overwrite what the run reads", output, input));
}

void refuse_shared_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  // The same file by its absolute path with "." and ".." resolved and the links of its existing folders followed:
  // outputs are compared before any of them exists.
  const auto key = [](const std::string& path) {
    if (is_standard_output(path)) return path;
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    const fs::path resolved = fs::weakly_canonical(absolute, ec);
    return (ec ? absolute.lexically_normal() : resolved).string();
  };
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t j = i + 1; j < outputs.size(); ++j)
      if (!outputs[i].second.empty() && key(outputs[i].second) == key(outputs[j].second))
        throw OutputError(fmt::format("{}: is both {} and {}; each output needs a file of its own, or one would "
                                      "overwrite the other",
                                      outputs[j].second, outputs[i].first, outputs[j].first));
}

OutputStream::OutputStream(const std::string& path, std::string what) : path_(path), what_(std::move(what)) {
  if (path.empty()) return;
  if (is_standard_output(path)) {
    fd_ = ::fcntl(document_output, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) throw system_error("the standard output", "cannot write the " + what_, errno);
    flusher_ = std::thread([this] { flush_every_second(); });
    return;
  }
  std::error_code ec;
  if (const fs::path folder = fs::path(path).parent_path(); !folder.empty()) fs::create_directories(folder, ec);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd_ < 0) throw system_error(path, "cannot write the " + what_, errno);
  flusher_ = std::thread([this] { flush_every_second(); });
}

OutputStream::~OutputStream() {
  if (fd_ < 0) return;
  stop_flusher_and_flush();
  ::close(fd_);
}

void OutputStream::stop_flusher_and_flush() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  flusher_.join();
  std::lock_guard lock(mutex_);
  flush_locked();
}

void OutputStream::write_line(const std::string& line) {
  if (fd_ < 0) return;
  std::lock_guard lock(mutex_);
  buffer_ += line;
  buffer_ += '\n';
  if (buffer_.size() >= kStreamBufferBytes) flush_locked();
}

void OutputStream::close() {
  if (fd_ < 0) return;
  stop_flusher_and_flush();
  if (::close(fd_) != 0 && error_.empty())
    error_ = fmt::format("{}: cannot write the {}: {}", path_, what_, system_reason(errno));
  fd_ = -1;
  if (!error_.empty()) throw OutputError(error_);
}

// Called with the mutex held. After a failure the rest is dropped: the
// file is already incomplete, and the first error is the one to report.
void OutputStream::flush_locked() {
  if (buffer_.empty()) return;
  const int error = error_.empty() ? write_all(fd_, buffer_.data(), buffer_.size()) : 0;
  if (error != 0) error_ = fmt::format("{}: cannot write the {}: {}", path_, what_, system_reason(error));
  buffer_.clear();
}

void OutputStream::flush_every_second() {
  std::unique_lock lock(mutex_);
  while (!closing_) {
    wake_.wait_for(lock, kStreamFlushInterval);
    flush_locked();
  }
}

} // namespace gsdk::host
