// output_file.hpp - every file gsdk writes goes through here, so that no output is lost or left half
// written: whole documents are written to a temporary file beside the target, flushed, synced, closed and
// renamed over it (and the temporaries a killed process left beside it removed); progressive streams (events) are
// flushed at least once a second; output paths are checked before the work that fills them starts, each a file of
// its own. The path "-" names the standard output, for a document piped on to another program.
#pragma once

#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gsdk::host {

// An output that cannot be written; the message names the path and the system's reason.
class OutputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Whether `path` names the standard output ("-"), which every output path may be except those a later run reads
// back (refuse_standard_output).
bool is_standard_output(const std::string& path);

// The words a report uses for an output path: the path itself, or "the standard output" for "-".
std::string output_name(const std::string& path);

// Refuses "-" for an output that must be a file (`what` names it, `why` says why, e.g. a checkpoint is read back
// to resume). Throws OutputError.
void refuse_standard_output(const std::string& path, const std::string& what, const std::string& why);

// Writes `content` to `path` atomically: readers see the previous file or the whole new one, never a part.
// Creates missing parent folders. A path that exists and is not a regular file (a device such as /dev/null,
// a FIFO) cannot be replaced, so it is written in place. On failure no temporary file is left and the
// previous content is kept. "-" writes to the standard output. Throws OutputError.
void write_file(const std::string& path, const std::string& content);

// Checks, before any work, that `path` can be written: every name in it at most 255 bytes, its folder
// creatable and writable (probed by creating the folder and a file there, then removing what was made, since
// access(2) is defeated by /proc and read-only mounts), and the path itself not a folder. Throws OutputError
// saying why. "-" is always writable; checking it gives the standard output to the documents written there, and
// moves what the command prints for people (its report) to the standard error from then on, so that the two never
// mix.
void check_output_path(const std::string& path);

// Refuses an output path that is the same file as an input (by std::filesystem::equivalent, so through
// links and relative paths too): an output must never overwrite what the run reads. Throws OutputError.
void refuse_input_as_output(const std::string& output, const std::string& input);

// Refuses two outputs of one command that are the same file ({what, path} pairs, e.g. {"the checkpoint
// (--checkpoint)", "x.json"}; empty paths are no output), found by their paths before either exists: the later
// write would replace the earlier. Throws OutputError naming the path and both outputs.
void refuse_shared_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// A file written progressively (JSON Lines events): lines are buffered and written at least once a second
// by a background thread, and at close. Every write is checked; the first failure is kept and reported by
// close(). No file at all when opened with an empty path.
class OutputStream {
public:
  // Truncates or creates `path` (creating its folder), or writes to the standard output for "-"; throws
  // OutputError. `what` names it in messages.
  OutputStream(const std::string& path, std::string what);
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;
  ~OutputStream(); // closes without reporting: the path where close() was not reached is already failing

  bool is_open() const { return fd_ >= 0; }
  // Appends `line` and a newline. Safe from several threads.
  void write_line(const std::string& line);
  // Writes what is buffered, closes, and throws OutputError if any write or the close failed.
  void close();

private:
  void flush_locked();
  void stop_flusher_and_flush(); // ends the background thread, then writes what is left
  void flush_every_second();

  std::string path_, what_;
  int fd_ = -1;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string buffer_;
  std::string error_; // the first failure, reported by close()
  bool closing_ = false;
  std::thread flusher_;
};

} // namespace gsdk::host
