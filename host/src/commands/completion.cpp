// completion.cpp - `gsdk completion bash`: a bash completion script written from the command table and each
// command's option table (option_table.hpp), so it completes exactly what the commands parse. A game operand
// completes from `gsdk list --names` at the time of completion (the plugins found then), an option's value from
// `gsdk completion --values COMMAND OPTION` (OPTION without its dashes; option_values.hpp: --device, --template,
// --only, the agents, ...), and a file operand or any other option's value from file names.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "commands/command_line.hpp"
#include "commands/command_table.hpp"
#include "commands/option_table.hpp"
#include "commands/option_values.hpp"
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
    local values
    local name="${{prev#--}}"
    values="$("${{COMP_WORDS[0]}}" completion --values "${{COMP_WORDS[1]}}" "${{name#-}}" 2>/dev/null)"
    if [[ -n "$values" ]]; then
      COMPREPLY=($(compgen -W "$values" -- "$cur"))
      return
    fi
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

// `--values COMMAND OPTION`: the values, one a line; none for a file or a free value.
int print_option_values(const std::vector<std::string>& words) {
  const CommandEntry* command = words.size() == 2 ? find_command(words[0]) : nullptr;
  if (words.size() != 2 || !command) {
    log_line(LogLevel::error,
             "--values takes a command and one of its options without dashes, e.g. --values run device");
    return kExitUsage;
  }
  for (const std::string& value : option_values(*command, "--" + words[1])) std::printf("%s\n", value.c_str());
  return kExitOk;
}

} // namespace

int command_completion(const Arguments& args) {
  po::options_description options("gsdk completion");
  options.add_options()("help,h", "show this help")("shell", po::value<std::string>(),
                                                    "the shell to complete for: bash")(
      "values", po::value<std::vector<std::string>>()->multitoken(),
      "COMMAND OPTION: print the values option --OPTION of COMMAND takes, one a line (the script asks for them)");
  po::positional_options_description positional;
  positional.add("shell", 1);
  po::variables_map vm;
  const std::string usage = "gsdk completion bash | gsdk completion --values COMMAND OPTION (e.g. run device)";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;
  if (vm.count("values")) return print_option_values(vm["values"].as<std::vector<std::string>>());
  if (!vm.count("shell")) {
    log_line(LogLevel::error, "SHELL is missing: the shell to complete for (bash)\nusage: " + usage);
    return kExitUsage;
  }
  const std::string shell = vm["shell"].as<std::string>();
  if (shell != "bash") {
    log_line(LogLevel::error, "no completion for shell '" + shell + "'; expected: bash");
    return kExitUsage;
  }
  std::fputs(bash_script().c_str(), stdout);
  return kExitOk;
}

} // namespace gsdk::host
