// background_process.hpp - starts the built `gsdk` executable (or another program, e.g. a game's tool) without
// waiting for it, so a test can send it signals while it runs, then waits for it with a time limit and tells how it
// ended (exit status or signal) and how long that took: a program that hangs fails the test instead of blocking it.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "test_paths.hpp"

namespace gsdk::test {

class BackgroundGsdk {
public:
  struct Ended {
    int status = -1; // exit status, or -1 when a signal ended it (or it did not end in time)
    int signal = 0;  // the signal that ended it
    bool in_time = false;
    std::string out, err;
  };

  // Runs gsdk `args` in `cwd` (without GSDK_PLUGIN_PATH), its stdout and stderr going to files there.
  BackgroundGsdk(const std::vector<std::string>& args, const std::filesystem::path& cwd)
      : BackgroundGsdk(gsdk_executable(), args, cwd) {}
  // The same for `program`.
  BackgroundGsdk(const std::filesystem::path& program, const std::vector<std::string>& args,
                 const std::filesystem::path& cwd)
      : cwd_(cwd) {
    const std::string exe = program.string();
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const std::filesystem::path out_file = cwd / ".stdout", err_file = cwd / ".stderr";
    pid_ = fork();
    if (pid_ == 0) {
      if (chdir(cwd.c_str()) != 0) _exit(126);
      const int o = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
      unsetenv("GSDK_PLUGIN_PATH");
      execv(exe.c_str(), argv.data());
      _exit(127);
    }
  }
  ~BackgroundGsdk() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  BackgroundGsdk(const BackgroundGsdk&) = delete;
  BackgroundGsdk& operator=(const BackgroundGsdk&) = delete;

  void send(int signal) const { kill(pid_, signal); }

  // Waits up to `limit` until the process catches `signal` (its handler installed: the signal's bit in SigCgt of
  // /proc/PID/status). False when it did not in time, or when there is no /proc.
  bool wait_until_catching(int signal, std::chrono::duration<double> limit) const {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    const uint64_t bit = uint64_t{1} << (signal - 1);
    for (;;) {
      std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
      for (std::string line; std::getline(status, line);)
        if (line.starts_with("SigCgt:") && (std::stoull(line.substr(7), nullptr, 16) & bit) != 0) return true;
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

  // Waits up to `limit`; a process still running then is killed and reported as not ended in time.
  Ended wait(std::chrono::duration<double> limit) {
    Ended ended;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    for (;;) {
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        ended.in_time = true;
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = 0;
    if (WIFEXITED(status)) ended.status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) ended.signal = WTERMSIG(status);
    ended.out = read_file(cwd_ / ".stdout");
    ended.err = read_file(cwd_ / ".stderr");
    return ended;
  }

private:
  std::filesystem::path cwd_;
  pid_t pid_ = 0;
};

// How a background run ended, with its output, for a failed assertion's message.
inline std::string describe(const BackgroundGsdk::Ended& e) {
  return "exit " + std::to_string(e.status) + " signal " + std::to_string(e.signal) + (e.in_time ? "" : " (killed)") +
         "\nstdout:\n" + e.out + "\nstderr:\n" + e.err;
}

// Starts gsdk `args` in `cwd`, waits (up to `give_up`) until it has saved its first checkpoint to `checkpoint` there,
// so it is under way whatever the machine's speed, sends SIGINT and waits up to `limit` for the end. `seconds` is
// the time from the signal to the end.
inline BackgroundGsdk::Ended interrupt_after_checkpoint(const std::vector<std::string>& args,
                                                        const std::filesystem::path& cwd, const std::string& checkpoint,
                                                        double& seconds, std::chrono::duration<double> limit,
                                                        std::chrono::duration<double> give_up) {
  BackgroundGsdk process(args, cwd);
  const auto until = std::chrono::steady_clock::now() + give_up;
  while (!std::filesystem::exists(cwd / checkpoint) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto sent = std::chrono::steady_clock::now();
  process.send(SIGINT);
  BackgroundGsdk::Ended ended = process.wait(limit);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  return ended;
}

} // namespace gsdk::test
