// command_line.cpp - option parsing and plugin loading shared by the subcommands.
#include "commands/command_line.hpp"

#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "commands/option_table.hpp"
#include "commands/usage_errors.hpp"
#include "report/log.hpp"

namespace gsdk::host {

void add_common_options(po::options_description& options) {
  options.add_options()("help,h", "show this help")(
      "plugin-dir", po::value<std::vector<std::string>>()->composing(),
      "also load plugins from this folder (repeatable; GSDK_PLUGIN_PATH is searched too)");
  add_plugin_trust_option(options);
}

void add_plugin_trust_option(po::options_description& options) {
  options.add_options()("allow-unsafe-plugin-dirs",
                        "load plugins even from files or folders that other users can write "
                        "(GSDK_ALLOW_UNSAFE_PLUGINS=1 does the same)");
}

PermissionCheck plugin_permission_check(const po::variables_map& vm) {
  if (vm.count("allow-unsafe-plugin-dirs")) return PermissionCheck::skip;
  const char* env = std::getenv("GSDK_ALLOW_UNSAFE_PLUGINS");
  if (!env || std::string(env).empty() || std::string(env) == "0") return PermissionCheck::enforce;
  if (std::string(env) == "1") return PermissionCheck::skip;
  log_line(LogLevel::warning, fmt::format("GSDK_ALLOW_UNSAFE_PLUGINS is \"{:.40}\", expected 1 (allow) or 0: plugin "
                                          "files and folders that other users can write are still refused",
                                          env));
  return PermissionCheck::enforce;
}

std::optional<uint32_t> parse_count(const std::string& text, uint32_t min, uint32_t max) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const unsigned long value = std::stoul(text);
  if (value < min || value > max) return std::nullopt;
  return static_cast<uint32_t>(value);
}

namespace {

std::vector<OptionRow> option_rows(const po::options_description& options) {
  std::vector<OptionRow> rows;
  for (const auto& option : options.options()) {
    OptionRow row;
    row.long_name = "--" + option->long_name();
    // Boost gives the short form ("-q") only when the option has one, else its long name without dashes.
    const std::string short_form = option->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (short_form.size() == 2 && short_form[0] == '-') row.short_name = short_form;
    row.takes_value = option->semantic()->max_tokens() > 0;
    if (row.takes_value) row.parameter = option->format_parameter();
    row.description = option->description();
    rows.push_back(std::move(row));
  }
  return rows;
}

} // namespace

std::optional<int> parse_arguments(const Arguments& args, const std::string& usage, po::options_description& options,
                                   const po::positional_options_description& positional, po::variables_map& vm,
                                   const po::options_description* hidden) {
  if (OptionTableRecorder* recorder = OptionTableRecorder::active()) {
    recorder->record({usage, option_rows(options)});
    return kExitOk;
  }
  try {
    po::options_description parsed;
    parsed.add(options);
    if (hidden) parsed.add(*hidden);
    po::store(po::command_line_parser(args).options(parsed).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << usage << "\n\n" << options << '\n';
      return kExitOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    po::options_description known;
    known.add(options);
    if (hidden) known.add(*hidden);
    log_line(LogLevel::error, usage_error_text(e, {args, usage, known, positional}) + "\nusage: " + usage);
    return kExitUsage;
  }
  return std::nullopt;
}

PluginCatalog load_catalog(const po::variables_map& vm, bool warn) {
  std::vector<std::string> extra;
  if (vm.count("plugin-dir")) extra = vm["plugin-dir"].as<std::vector<std::string>>();
  PluginCatalog catalog(plugin_permission_check(vm));
  catalog.load_directories(plugin_search_path(extra));
  if (warn)
    for (const auto& p : catalog.problems())
      log_line(LogLevel::warning, (p.folder ? "plugin folder " : "plugin ") + p.path + " refused: " + p.message);
  return catalog;
}

} // namespace gsdk::host
