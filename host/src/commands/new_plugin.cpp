// new_plugin.cpp - `gsdk new-plugin NAME --template T [--dir D] [--template-dir DIR]`: the source folder of a
// new plugin, copied from a template and renamed, ready to build with no further edit.
//
// A template is a folder `<templates>/<T>/` with a `gsdk-template.toml` naming its identifier (the game's
// name, e.g. connect_four) and describing it. The identifier is the only text a copy must change: it is
// replaced by NAME in file names and contents, in each of its forms (connect_four, CONNECT_FOUR and
// ConnectFour), in one pass so a replacement is never replaced again. The templates are found in
// `<folder of gsdk>/../share/gsdk/templates/`, where an installation puts them and the build stages them.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "commands/command_line.hpp"
#include "commands/template_folder.hpp"
#include "config/config_error.hpp"
#include "report/input_file.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

namespace {

namespace fs = std::filesystem;

// Why `name` cannot name a plugin (its game, namespace, CMake targets and options), or "".
std::string name_problem(const std::string& name) {
  static constexpr std::string_view kCppKeywords[] = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq"};
  // Target names CMake keeps for itself (with Ninja and Makefiles, and CTest and CPack enabled).
  static constexpr std::string_view kCmakeTargets[] = {
      "all", "clean", "help", "install", "test", "package", "package_source", "edit_cache", "rebuild_cache"};
  const std::string expected = "expected a lower-case C identifier in snake_case, [a-z][a-z0-9_]*, e.g. my_game";
  if (name.empty()) return "the plugin name is empty; " + expected;
  if (!std::islower(static_cast<unsigned char>(name[0])))
    return fmt::format("plugin name '{}' starts with '{}'; {}", name, name[0], expected);
  for (char c : name)
    if (!std::islower(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) && c != '_')
      return fmt::format("plugin name '{}' holds '{}'; {}", name, c, expected);
  if (std::ranges::find(kCppKeywords, name) != std::end(kCppKeywords))
    return fmt::format("plugin name '{}' is a C++ keyword; the name is the plugin's namespace", name);
  if (name == "gsdk" || name == "std")
    return fmt::format("plugin name '{}' is taken: {} is the {}'s namespace", name, name,
                       name == "gsdk" ? "SDK" : "C++ standard library");
  if (std::ranges::find(kCmakeTargets, name) != std::end(kCmakeTargets))
    return fmt::format("plugin name '{}' is a target name CMake reserves; the name is the plugin's target", name);
  if (name.find("__") != std::string::npos)
    return fmt::format("plugin name '{}' has two underscores in a row: C++ reserves such identifiers", name);
  if (name.ends_with("_t"))
    return fmt::format("plugin name '{}' ends in _t: POSIX reserves such names for types", name);
  return "";
}

// The spellings of a snake_case identifier: as is, UPPER_CASE (options, macros), CamelCase (types).
std::array<std::string, 3> spellings(const std::string& snake) {
  std::string upper, camel;
  bool word_start = true;
  for (char c : snake) {
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (c == '_') {
      word_start = true;
      continue;
    }
    camel += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    word_start = false;
  }
  return {snake, upper, camel};
}

// Replaces each spelling of one identifier by the same spelling of another, left to right in one pass.
class Renamer {
public:
  Renamer(const std::string& from, const std::string& to) {
    const auto old_forms = spellings(from), new_forms = spellings(to);
    for (size_t i = 0; i < old_forms.size(); ++i) {
      const bool seen =
          std::any_of(pairs_.begin(), pairs_.end(), [&](const auto& p) { return p.first == old_forms[i]; });
      if (!seen) pairs_.emplace_back(old_forms[i], new_forms[i]);
    }
  }

  std::string operator()(std::string_view text) const {
    std::string out;
    out.reserve(text.size());
    for (size_t at = 0; at < text.size();) {
      const auto match = std::find_if(pairs_.begin(), pairs_.end(),
                                      [&](const auto& p) { return text.substr(at, p.first.size()) == p.first; });
      if (match == pairs_.end()) {
        out += text[at++];
        continue;
      }
      out += match->second;
      at += match->first.size();
    }
    return out;
  }

private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// Refused input: exit status 2 with the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Template {
  std::string identifier;
  std::string description;
};

// The template folder's manifest; refuses anything but the two keys, with file:line:column.
Template read_manifest(const fs::path& folder) {
  const fs::path path = folder / kTemplateManifest;
  toml::table table;
  try {
    table = toml::parse_file(path.string());
  } catch (const toml::parse_error& e) {
    throw UsageError(located(e.source(), std::string(e.description())));
  }
  Template t;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (name != "identifier" && name != "description")
      throw UsageError(
          located(key.source(), fmt::format("unknown key '{}'; valid keys: identifier, description", name)));
    if (!node.is_string()) throw UsageError(located(node.source(), fmt::format("'{}' must be a string", name)));
    (name == "identifier" ? t.identifier : t.description) = node.as_string()->get();
  }
  if (t.identifier.empty())
    throw UsageError(
        fmt::format("{}: missing key 'identifier' (the name the template's files use, e.g. my_game)", path.string()));
  if (const std::string problem = name_problem(t.identifier); !problem.empty())
    throw UsageError(fmt::format("{}: identifier: {}", path.string(), problem));
  return t;
}

std::string read_bytes(const fs::path& path) {
  InputFile in = open_input_file(path.string());
  if (!in.failure.empty()) throw std::runtime_error("cannot read " + path.string() + ": " + in.failure);
  std::ostringstream bytes;
  bytes << in.stream.rdbuf();
  return bytes.str();
}

// Copies `source` into the empty folder `target`, renaming; returns the files written. Leaves out the
// manifest, and a build/ folder at the top, where a template built in place keeps absolute paths.
size_t copy_renamed(const fs::path& source, const fs::path& target, const Renamer& rename) {
  size_t files = 0;
  for (auto it = fs::recursive_directory_iterator(source); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path relative = it->path().lexically_relative(source);
    if (relative == kTemplateManifest) continue;
    if (it.depth() == 0 && it->is_directory() && relative == "build") {
      it.disable_recursion_pending();
      continue;
    }
    fs::path destination = target;
    for (const auto& part : relative) destination /= rename(part.string());
    if (it->is_directory()) {
      fs::create_directories(destination);
      continue;
    }
    write_file(destination.string(), rename(read_bytes(it->path())));
    fs::permissions(destination, fs::status(it->path()).permissions());
    ++files;
  }
  return files;
}

// Where the templates are: --template-dir, else <folder of gsdk>/../share/gsdk/templates.
fs::path templates_folder(const po::variables_map& vm) {
  if (vm.count("template-dir")) {
    const fs::path given = vm["template-dir"].as<std::string>();
    if (!fs::is_directory(given)) throw UsageError(fmt::format("--template-dir {}: no such folder", given.string()));
    return given;
  }
  const fs::path beside = templates_beside_gsdk();
  if (!fs::is_directory(beside))
    throw std::runtime_error(fmt::format("no templates at {} (gsdk looks in <its folder>/../share/gsdk/templates); "
                                         "pass --template-dir DIR, e.g. <gsdk checkout>/sdk/templates",
                                         beside.string()));
  return beside;
}

// The target folder, which must be new or empty, and outside the template it is copied from.
void check_target(const fs::path& target, const fs::path& source) {
  const fs::path inside = fs::weakly_canonical(target).lexically_relative(fs::weakly_canonical(source));
  if (!inside.empty() && *inside.begin() != "..")
    throw UsageError(
        fmt::format("{} lies inside the template {} it would be copied from", target.string(), source.string()));
  if (!fs::exists(target)) return;
  if (!fs::is_directory(target)) throw UsageError(fmt::format("{} exists and is not a folder", target.string()));
  if (!fs::is_empty(target))
    throw UsageError(fmt::format("{} exists and is not empty; choose another --dir, or remove it", target.string()));
}

// After a failed copy: removes the target folder when this command created it, else (it was empty) what is in it.
void remove_partial_copy(const fs::path& target, bool created) {
  std::error_code ignored;
  if (created) {
    fs::remove_all(target, ignored);
    return;
  }
  if (!fs::is_directory(target, ignored)) return;
  for (const auto& entry : fs::directory_iterator(target, ignored)) fs::remove_all(entry.path(), ignored);
}

} // namespace

int command_new_plugin(const Arguments& args) {
  po::options_description options("gsdk new-plugin");
  options.add_options()("help,h", "show this help")("name", po::value<std::string>()->required(),
                                                    "the new plugin's name: its game, namespace and target")(
      "template", po::value<std::string>()->required(), "the template to copy (e.g. two-player, chance)")(
      "dir", po::value<std::string>(), "the folder to create (default: ./NAME); it may exist if empty")(
      "template-dir", po::value<std::string>(),
      "a folder of templates to use instead of <folder of gsdk>/../share/gsdk/templates");
  po::positional_options_description positional;
  positional.add("name", 1);
  po::variables_map vm;
  const std::string usage = "gsdk new-plugin NAME --template TEMPLATE [--dir DIR] [--template-dir DIR]";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  const std::string name = vm["name"].as<std::string>();
  const std::string template_name = vm["template"].as<std::string>();
  const fs::path target = vm.count("dir") ? fs::path(vm["dir"].as<std::string>()) : fs::path(name);
  std::optional<bool> created; // once the copy begins: whether this command made the target folder
  try {
    if (const std::string problem = name_problem(name); !problem.empty()) throw UsageError(problem);
    const fs::path templates = templates_folder(vm);
    const std::vector<std::string> known = template_names(templates);
    if (std::find(known.begin(), known.end(), template_name) == known.end()) {
      std::string listing;
      for (const auto& k : known) listing += fmt::format("\n  {:<12} {}", k, read_manifest(templates / k).description);
      throw UsageError(fmt::format("unknown template '{}'; the templates in {} are:{}", template_name,
                                   templates.string(), known.empty() ? " none" : listing));
    }
    const Template manifest = read_manifest(templates / template_name);
    check_target(target, templates / template_name);
    created = !fs::exists(target);
    fs::create_directories(target);
    const size_t files = copy_renamed(templates / template_name, target, Renamer(manifest.identifier, name));
    fmt::print("created {0}: plugin '{1}' from the {2} template ({3} renamed), {4} files\n"
               "build and test it ({0}/README.md says more):\n"
               "  cmake -S {0} -B {0}/build && cmake --build {0}/build   (-DCMAKE_PREFIX_PATH=<gsdk prefix> unless "
               "installed)\n"
               "  ctest --test-dir {0}/build\n"
               "  gsdk check {0}/build/plugins/{1}.so\n",
               target.string(), name, template_name, manifest.identifier, files);
    return kExitOk;
  } catch (const UsageError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    if (created) remove_partial_copy(target, *created);
    log_line(LogLevel::error, std::string("new-plugin: ") + e.what());
    return kExitFailed;
  }
}

} // namespace gsdk::host
