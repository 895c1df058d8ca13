// gsdk_process.hpp - runs the built `gsdk` executable, or another program built beside the test binary (a
// game's tool), in a folder and captures its exit status, stdout and stderr, for the end-to-end CLI tests.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_paths.hpp"

namespace gsdk::test {

struct Outcome {
  int status = -1; // exit status, or -1 when it did not exit normally
  std::string out;
  std::string err;
};

// Runs `program` with `args` in folder `cwd` (without GSDK_PLUGIN_PATH), capturing stdout and stderr; with
// `input`, that text is its standard input (the GTP engine's commands), else the test's own.
inline Outcome program_run(const std::filesystem::path& program, const std::vector<std::string>& args,
                           const std::filesystem::path& cwd, const std::string* input = nullptr) {
  const std::filesystem::path in_file = cwd / ".stdin", out_file = cwd / ".stdout", err_file = cwd / ".stderr";
  if (input) write_file(in_file, *input);
  const std::string exe = program.string();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(126);
    const int o = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
    if (input) {
      const int i = open(in_file.c_str(), O_RDONLY);
      if (i < 0 || dup2(i, 0) < 0) _exit(126);
    }
    unsetenv("GSDK_PLUGIN_PATH");
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  Outcome r;
  int status = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) r.status = WEXITSTATUS(status);
  r.out = read_file(out_file);
  r.err = read_file(err_file);
  return r;
}

// Runs gsdk, as program_run does.
inline Outcome gsdk_run(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                        const std::string* input = nullptr) {
  return program_run(gsdk_executable(), args, cwd, input);
}

inline std::string describe(const Outcome& r) {
  return "exit " + std::to_string(r.status) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

} // namespace gsdk::test
