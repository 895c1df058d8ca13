// gsdk_input_process.hpp - runs the built `gsdk` with a given text on its standard input (for the
// GTP engine), capturing exit status, stdout and stderr like gsdk_run.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gsdk_process.hpp"

namespace gsdk::test {

inline Outcome gsdk_run_with_input(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                                   const std::string& input) {
  const std::filesystem::path in_file = cwd / ".stdin", out_file = cwd / ".stdout", err_file = cwd / ".stderr";
  write_file(in_file, input);
  const std::string exe = gsdk_executable().string();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(126);
    const int i = open(in_file.c_str(), O_RDONLY);
    const int o = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (i < 0 || o < 0 || e < 0 || dup2(i, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
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

} // namespace gsdk::test
