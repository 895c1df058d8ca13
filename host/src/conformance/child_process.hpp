// child_process.hpp - runs a function in a forked child process with a time limit, so that whatever the
// function calls into (a plugin) cannot take the caller down: a crash or a hang ends only the child.
//
// Hand-written on POSIX fork/poll/waitpid (Linux): what is needed here is a function of this process run
// elsewhere, with its memory and loaded plugin as they are, which process libraries that start programs
// (Boost.Process and the like) do not offer.
#pragma once

#include <functional>
#include <string>

namespace gsdk::host::conformance {

struct ChildRun {
  enum class End { returned, exited, signalled, timed_out };
  End end = End::returned;
  std::string result;      // End::returned: what the function returned
  int exit_status = 0;     // End::exited: the status of a child that exited without returning
  int signal = 0;          // End::signalled: the signal that killed it
  std::string output_tail; // the last bytes the child wrote to its stdout and stderr
  double seconds = 0;
};

// Runs `body` in a child process and returns what it returned, or how the child ended instead. The child
// leads a process group of its own, reads /dev/null, writes its stdout and stderr into a pipe whose tail
// is kept (so nothing it prints reaches ours), and is killed if this process dies. After
// `timeout_seconds` its whole process group is killed. The child is always waited for: no zombie, no
// orphan. Call it while this process has only one thread (fork copies the calling thread alone).
// Throws std::runtime_error when no child can be started.
ChildRun run_in_child(const std::function<std::string()>& body, double timeout_seconds);

// How a child that did not return ended, for a report: "killed by signal 11 (Segmentation fault)",
// "timed out after 120 s", "exited with status 3 before reporting a result"; then the tail of its output.
std::string describe_ending(const ChildRun& run, double timeout_seconds);

} // namespace gsdk::host::conformance
