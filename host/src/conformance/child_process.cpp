// child_process.cpp - fork, two pipes, a poll loop with a deadline, and a process-group kill.
#include "conformance/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::host::conformance {

namespace {

constexpr size_t kTailBytes = 4096; // of the child's output kept
constexpr size_t kShownTail = 400;  // of those shown in a report

void write_all(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// The child's side: never returns.
[[noreturn]] void become_child(const std::function<std::string()>& body, pid_t parent, int result_fd, int output_fd) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(125); // the parent died before the line above took effect
  const int null = open("/dev/null", O_RDONLY);
  if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(output_fd, STDOUT_FILENO) < 0 ||
      dup2(output_fd, STDERR_FILENO) < 0)
    _exit(126);
  std::string result;
  try {
    result = body();
  } catch (...) {
    _exit(124);
  }
  write_all(result_fd, result);
  std::fflush(nullptr);
  // _exit: no atexit handlers or static destructors of the plugin or a device runtime run in the child.
  _exit(0);
}

void keep_tail(std::string& tail, const char* bytes, size_t n) {
  tail.append(bytes, n);
  if (tail.size() > kTailBytes) tail.erase(0, tail.size() - kTailBytes);
}

} // namespace

ChildRun run_in_child(const std::function<std::string()>& body, double timeout_seconds) {
  int result_pipe[2], output_pipe[2];
  if (pipe2(result_pipe, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  if (pipe2(output_pipe, O_CLOEXEC) != 0) {
    close(result_pipe[0]);
    close(result_pipe[1]);
    throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  }
  std::fflush(nullptr); // or the child would print our buffered output again
  const pid_t parent = getpid();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    close(result_pipe[0]);
    close(output_pipe[0]);
    become_child(body, parent, result_pipe[1], output_pipe[1]);
  }
  close(result_pipe[1]);
  close(output_pipe[1]);
  if (pid < 0) {
    close(result_pipe[0]);
    close(output_pipe[0]);
    throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
  }
  setpgid(pid, pid); // also here, so that the group exists before any kill below

  ChildRun run;
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(timeout_seconds));
  pollfd fds[2] = {{result_pipe[0], POLLIN, 0}, {output_pipe[0], POLLIN, 0}};
  bool timed_out = false;
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) { // cannot watch the child any more: end it rather than wait for it blind
      kill(-pid, SIGKILL);
      break;
    }
    for (pollfd& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      const ssize_t n = read(p.fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(p.fd);
        p.fd = -1;
      } else if (&p == &fds[0]) {
        run.result.append(buffer, static_cast<size_t>(n));
      } else {
        keep_tail(run.output_tail, buffer, static_cast<size_t>(n));
      }
    }
  }
  for (const pollfd& p : fds)
    if (p.fd >= 0) close(p.fd);
  if (timed_out) kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  kill(-pid, SIGKILL); // anything the child started and left in its group
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (timed_out)
    run.end = ChildRun::End::timed_out;
  else if (WIFSIGNALED(status)) {
    run.end = ChildRun::End::signalled;
    run.signal = WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    run.end = ChildRun::End::exited;
    run.exit_status = WEXITSTATUS(status);
  } else if (run.result.empty()) {
    run.end = ChildRun::End::exited;
  }
  return run;
}

std::string describe_ending(const ChildRun& run, double timeout_seconds) {
  std::string what;
  switch (run.end) {
  case ChildRun::End::timed_out:
    what = fmt::format("timed out after {:g} s", timeout_seconds);
    break;
  case ChildRun::End::signalled:
    what = fmt::format("killed by signal {} ({})", run.signal, strsignal(run.signal));
    break;
  case ChildRun::End::exited:
    what = fmt::format("exited with status {} before reporting a result", run.exit_status);
    break;
  case ChildRun::End::returned:
    what = "returned";
    break;
  }
  if (run.output_tail.empty()) return what;
  std::string tail = run.output_tail.size() > kShownTail
                         ? "..." + run.output_tail.substr(run.output_tail.size() - kShownTail)
                         : run.output_tail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  return what + "; its output ended with: " + tail;
}

} // namespace gsdk::host::conformance
