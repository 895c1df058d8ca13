// commands.hpp - the gsdk subcommands. Each takes its arguments after the command name and returns
// the process exit status: 0 success, 1 a run that failed or is incomplete, 2 bad usage or input.
#pragma once

#include <string>
#include <vector>

namespace gsdk::host {

using Arguments = std::vector<std::string>;

int command_list(const Arguments& args);
int command_run(const Arguments& args);
int command_merge(const Arguments& args);
int command_bench(const Arguments& args);
int command_replay(const Arguments& args);
int command_perft(const Arguments& args);
int command_match(const Arguments& args);
int command_gtp(const Arguments& args);
int command_check(const Arguments& args);
int command_new_plugin(const Arguments& args);
int command_completion(const Arguments& args);
int command_version(const Arguments& args);

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;

} // namespace gsdk::host
