// option_values.cpp - the values of an option for shell completion (option_values.hpp).
#include "commands/option_values.hpp"

#include <set>
#include <sstream>

#include "commands/command_line.hpp"
#include "commands/option_table.hpp"
#include "commands/template_folder.hpp"
#include "conformance/check_registry.hpp"
#include "play/agent_spec.hpp"

namespace gsdk::host {

namespace {

// The checks' names and, before them, a pattern for each group ("rules.*"), as --only selects them.
std::vector<std::string> check_patterns() {
  std::vector<std::string> values;
  std::set<std::string> groups;
  for (const conformance::CheckSpec& check : conformance::all_checks()) {
    const std::string name = check.name;
    if (groups.insert(name.substr(0, name.find('.'))).second) values.push_back(name.substr(0, name.find('.')) + ".*");
  }
  for (const conformance::CheckSpec& check : conformance::all_checks()) values.emplace_back(check.name);
  return values;
}

// The names of the games the plugins found now provide (the default search path).
std::vector<std::string> game_names() {
  const po::variables_map none;
  return load_catalog(none, false).game_names();
}

// The choices the usage shows after `option`: "--device cpu|cuda|all|auto]" gives cpu, cuda, all, auto.
std::vector<std::string> usage_choices(const std::string& usage, const std::string& option) {
  std::istringstream words(usage);
  for (std::string word; words >> word;) {
    if (word.erase(0, word.find_first_not_of('[')) != option) continue;
    std::string value;
    if (!(words >> value) || value.find('|') == std::string::npos) return {};
    while (!value.empty() && (value.back() == ']' || value.back() == '.')) value.pop_back();
    std::vector<std::string> choices;
    std::istringstream parts(value);
    for (std::string part; std::getline(parts, part, '|');)
      if (!part.empty()) choices.push_back(part);
    return choices;
  }
  return {};
}

} // namespace

std::vector<std::string> option_values(const CommandEntry& command, const std::string& option) {
  if (option == "--template") return template_names(templates_beside_gsdk());
  if (option == "--only") return check_patterns();
  if (option == "--agent0" || option == "--agent1" || option == "--agent") return agent_kinds();
  if (option == "--game") return game_names();
  return usage_choices(option_table_of(command).usage, option);
}

} // namespace gsdk::host
