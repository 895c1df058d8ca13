// completion.cpp - `gsdk completion bash`: a bash completion script written from the command table and each
// command's option table (option_table.hpp), so it completes exactly what the commands parse. A game operand
// completes from `gsdk list --names` at the time of completion (the plugins found then), a file operand and the
// value of an option from file names.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "commands/command_line.hpp"
#include "commands/command_table.hpp"
#include "commands/option_table.hpp"
#include "report/log.hpp"

namespace gsdk::host {

namespace {

// What the first operand of a command is, read from its operands in the table: a game name, a file, the shells
// this command writes for, or nothing to complete (a new plugin's name, none at all).
std::string operand_kind(const CommandEntry& command) {
  const std::string first = std::string(command.operands).substr(0, std::string(command.operands).find(' '));
  if (first == "GAME") return "game";
  if (first == "SHELL") return "shell";
  if (first.find('.') != std::string::npos) return "file";
  return "none";
}

std::string command_case(const CommandEntry& command) {
  const OptionTable table = option_table_of(command);
  std::string options, valued;
  for (const OptionRow& row : table.options) {
    options += " " + row.long_name + (row.short_name.empty() ? "" : " " + row.short_name);
    if (row.takes_value) valued += " " + row.long_name + (row.short_name.empty() ? "" : " " + row.short_name);
  }
  return fmt::format("  {})\n    options=\"{}\"\n    valued=\"{}\"\n    operand={}\n    ;;\n", command.name,
                     options.empty() ? "" : options.substr(1), valued.empty() ? "" : valued.substr(1),
                     operand_kind(command));
}

std::string bash_script() {
  std::string names;
  for (const CommandEntry& c : command_table()) names += std::string(c.name) + " ";
  std::string cases;
  for (const CommandEntry& c : command_table()) cases += command_case(c);
  // The words before the cursor that are operands (not options, not an option's value) tell which operand is being
  // typed: only the first one of perft, match and gtp is a game.
  return fmt::format(R"bash(# bash completion for gsdk, written by `gsdk completion bash` from gsdk's own option tables.
# Use: source it, or install it as share/bash-completion/completions/gsdk (cmake --install does).

_gsdk_games() {{
  "${{COMP_WORDS[0]}}" list --names 2>/dev/null
}}

_gsdk() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  local commands="{commands}"
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "$commands help --help -h --version -V" -- "$cur"))
    return
  fi
  local options="" valued="" operand=none
  case "${{COMP_WORDS[1]}}" in
  help | --help | -h)
    ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$commands --man" -- "$cur"))
    return
    ;;
{cases}  *)
    return
    ;;
  esac
  if [[ -n "$valued" && " $valued " == *" $prev "* ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    return
  fi
  local i word operands_before=0
  for ((i = 2; i < COMP_CWORD; i++)); do
    word="${{COMP_WORDS[i]}}"
    if [[ "$word" == -* ]]; then
      [[ " $valued " == *" $word "* ]] && ((i++))
      continue
    fi
    ((operands_before++))
  done
  case "$operand" in
  game) ((operands_before == 0)) && COMPREPLY=($(compgen -W "$(_gsdk_games)" -- "$cur")) ;;
  shell) ((operands_before == 0)) && COMPREPLY=($(compgen -W "bash" -- "$cur")) ;;
  file)
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
    ;;
  esac
}}

complete -F _gsdk gsdk
)bash",
                     fmt::arg("commands", names.substr(0, names.size() - 1)), fmt::arg("cases", cases));
}

} // namespace

int command_completion(const Arguments& args) {
  po::options_description options("gsdk completion");
  options.add_options()("help,h", "show this help")("shell", po::value<std::string>()->required(),
                                                    "the shell to complete for: bash");
  po::positional_options_description positional;
  positional.add("shell", 1);
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk completion bash", options, positional, vm)) return *exit;
  const std::string shell = vm["shell"].as<std::string>();
  if (shell != "bash") {
    log_line(LogLevel::error, "no completion for shell '" + shell + "'; expected: bash");
    return kExitUsage;
  }
  std::fputs(bash_script().c_str(), stdout);
  return kExitOk;
}

} // namespace gsdk::host
