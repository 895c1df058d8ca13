// usage_errors.cpp - gsdk's words for Boost.Program_options' errors (usage_errors.hpp).
#include "commands/usage_errors.hpp"

#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/near_miss.hpp"

namespace gsdk::host {

namespace po = boost::program_options;

namespace {

// The usage's operands in order ("CONFIG.toml" of "gsdk run CONFIG.toml [--set ...]"): the words after the
// command's name up to the first option or bracket.
std::vector<std::string> operands_of(const std::string& usage) {
  std::istringstream words(usage);
  std::vector<std::string> operands;
  std::string word;
  words >> word >> word; // "gsdk" and the command
  while (words >> word && word[0] != '[' && word[0] != '-' && word[0] != '|') operands.push_back(word);
  return operands;
}

// The operand word the usage shows for positional option `name`, or "" when it is not positional.
std::string operand_for(const std::string& name, const UsageContext& context) {
  const std::vector<std::string> operands = operands_of(context.usage);
  const unsigned count = context.positional.max_total_count();
  for (unsigned k = 0; k < count && k < operands.size(); ++k)
    if (context.positional.name_for_position(k) == name) return operands[k];
  return "";
}

std::vector<std::string> long_option_names(const po::options_description& options) {
  std::vector<std::string> names;
  for (const auto& option : options.options()) names.push_back("--" + option->long_name());
  return names;
}

// The words of the command line that are operands, not options or their values.
std::vector<std::string> operand_words(const UsageContext& context) {
  const po::parsed_options parsed =
      po::command_line_parser(context.args).options(context.options).allow_unregistered().run();
  return po::collect_unrecognized(parsed.options, po::include_positional);
}

// " (did you mean '--set a.b=5'?)" when `extra` follows an option whose usage is "--opt key=value" (or
// name=value) and whose value lacks its '=': the two words were meant as one.
std::string joined_value_hint(const std::string& extra, const UsageContext& context) {
  const Arguments& args = context.args;
  for (size_t k = 2; k < args.size(); ++k) {
    if (args[k] != extra || args[k - 1].find('=') != std::string::npos) continue;
    const std::string option = args[k - 2];
    if (context.usage.find(option + " key=value") == std::string::npos &&
        context.usage.find(option + " name=value") == std::string::npos)
      continue;
    return fmt::format(" (did you mean '{} {}={}'?)", option, args[k - 1], extra);
  }
  return "";
}

std::string missing_text(const po::required_option& e, const UsageContext& context) {
  const std::string option = e.get_option_name(); // "--config"
  const std::string name = option.substr(2);
  const po::option_description* described = context.options.find_nothrow(name, false);
  const std::string what = described ? described->description() : "";
  if (const std::string operand = operand_for(name, context); !operand.empty())
    return fmt::format("{} is missing{}", operand, what.empty() ? "" : ": " + what);
  return fmt::format("{} is required{}", option, what.empty() ? "" : ": " + what);
}

std::string extra_operand_text(const UsageContext& context) {
  const std::vector<std::string> operands = operands_of(context.usage);
  const std::vector<std::string> words = operand_words(context);
  if (words.size() <= operands.size()) return "too many operands"; // not expected: Boost counted more
  const std::string& extra = words[operands.size()];
  const std::string takes = operands.empty() ? "no operands" : fmt::format("{}", fmt::join(operands, " "));
  return fmt::format("unexpected word '{}'{}: the command takes {}", extra, joined_value_hint(extra, context), takes);
}

} // namespace

std::string usage_error_text(const po::error& error, const UsageContext& context) {
  if (const auto* e = dynamic_cast<const po::required_option*>(&error)) return missing_text(*e, context);
  if (dynamic_cast<const po::too_many_positional_options_error*>(&error)) return extra_operand_text(context);
  if (const auto* e = dynamic_cast<const po::unknown_option*>(&error)) {
    const std::string option = e->get_option_name();
    return fmt::format("unknown option '{}'{}", option, did_you_mean(option, long_option_names(context.options)));
  }
  if (const auto* e = dynamic_cast<const po::invalid_command_line_syntax*>(&error);
      e && e->kind() == po::invalid_command_line_syntax::missing_parameter)
    return fmt::format("{} needs a value", e->get_option_name());
  if (const auto* e = dynamic_cast<const po::multiple_occurrences*>(&error))
    return fmt::format("{} is given more than once; give it once", e->get_option_name());
  return error.what();
}

} // namespace gsdk::host
