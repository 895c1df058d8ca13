// plugin_catalog.cpp - plugin discovery, loading and ABI negotiation.
#include "plugin_loading/plugin_catalog.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "plugin_loading/plugin_search_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plugin_loading/plugin_file_checks.hpp"
#include "plugin_loading/plugin_permissions.hpp"
#include "report/log.hpp"

namespace gsdk::host {

namespace {

void host_log(void*, int32_t level, const char* message) {
  log_line(level >= GSDK_LOG_WARNING ? LogLevel::warning : LogLevel::info, message ? message : "");
}

const gsdk_host_services kServices = {{GSDK_TYPE_HOST_SERVICES, sizeof(gsdk_host_services)}, nullptr, &host_log};

} // namespace

const LoadedPlugin* PluginCatalog::find(const std::string& name) const {
  for (const auto& p : plugins_)
    if (p->tables.name() == name) return p.get();
  return nullptr;
}

std::vector<std::string> PluginCatalog::game_names() const {
  std::vector<std::string> names;
  for (const auto& p : plugins_) names.push_back(p->tables.name());
  return names;
}

std::string PluginCatalog::names() const {
  const std::vector<std::string> games = game_names();
  return games.empty() ? "(none)" : fmt::format("{}", fmt::join(games, ", "));
}

const LoadedPlugin* PluginCatalog::load_file(const std::filesystem::path& file) {
  if (permissions_ == PermissionCheck::enforce) {
    const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
    if (const auto why = unsafe_permissions(folder)) {
      problems_.push_back({file.string(), fmt::format("its folder {}: {}", folder.string(), *why)});
      return nullptr;
    }
  }
  return load_file_of_checked_folder(file);
}

const LoadedPlugin* PluginCatalog::load_file_of_checked_folder(const std::filesystem::path& file) {
  const std::string path = file.string();
  const auto refuse = [&](std::string message) -> const LoadedPlugin* {
    problems_.push_back({path, std::move(message)});
    return nullptr;
  };
  // Both checks come before dlopen: a refused file runs none of its code.
  if (const auto why = plugin_file_problem(file)) return refuse(*why);
  if (permissions_ == PermissionCheck::enforce)
    if (const auto why = unsafe_permissions(file)) return refuse(*why);

  auto plugin = std::make_unique<LoadedPlugin>();
  try {
    plugin->library.load(boost::dll::fs::path(file),
                         boost::dll::load_mode::rtld_local | boost::dll::load_mode::rtld_now);
  } catch (const std::exception& e) {
    return refuse(fmt::format("cannot be loaded as a shared library: {}", e.what()));
  }
  if (!plugin->library.has(GSDK_ENTRY_SYMBOL))
    return refuse(fmt::format("lacks the entry point '{}': expected a gsdk plugin exporting it", GSDK_ENTRY_SYMBOL));

  auto negotiate =
      plugin->library.get<int32_t(const gsdk_negotiation*, gsdk_plugin_info*, char*, uint32_t)>(GSDK_ENTRY_SYMBOL);
  const gsdk_negotiation request = {
      {GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR, GSDK_ABI_MAJOR, &kServices};
  gsdk_plugin_info info{};
  info.header = {GSDK_TYPE_PLUGIN_INFO, sizeof(gsdk_plugin_info)};
  if (const auto failure =
          core::call_entry([&](char* error, uint32_t size) { return negotiate(&request, &info, error, size); }))
    return refuse(fmt::format("refused the ABI negotiation (status {}): {}", failure->status,
                              failure->message.empty() ? "no message" : failure->message));
  if (info.abi_major != GSDK_ABI_MAJOR)
    return refuse(fmt::format("answered with ABI {}.{}, but this host speaks ABI major {}", info.abi_major,
                              info.abi_minor, GSDK_ABI_MAJOR));
  try {
    plugin->tables = core::bind_tables(path, info);
  } catch (const std::exception& e) {
    return refuse(e.what());
  }
  if (const LoadedPlugin* existing = find(plugin->tables.name()))
    return refuse(fmt::format("plugin name '{}' is already provided by {}; this copy is ignored", plugin->tables.name(),
                              existing->tables.path));
  plugins_.push_back(std::move(plugin));
  return plugins_.back().get();
}

void PluginCatalog::load_directories(const std::vector<std::filesystem::path>& dirs) {
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    if (permissions_ == PermissionCheck::enforce)
      if (const auto why = unsafe_permissions(dir)) {
        problems_.push_back({dir.string(), *why, true});
        continue;
      }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".so") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) load_file_of_checked_folder(f);
  }
}

// Explicit beats environment beats default: the first plugin of a name wins, so a game built by the
// user and named with --plugin-dir replaces a shipped one of the same name. The defaults are the
// build folder's layout (build/bin/plugins) and the installed one (P/bin/gsdk, P/lib/gsdk/plugins),
// relative to the executable's real location (symbolic links to it resolved).
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& extra_dirs) {
  return plugin_search_path(extra_dirs, {boost::dll::program_location().parent_path().string()});
}

std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& extra_dirs,
                                                      const std::vector<std::filesystem::path>& executable_dirs) {
  std::vector<std::filesystem::path> dirs(extra_dirs.begin(), extra_dirs.end());
  if (const char* env = std::getenv("GSDK_PLUGIN_PATH")) {
    std::stringstream list(env);
    for (std::string d; std::getline(list, d, ':');)
      if (!d.empty()) dirs.emplace_back(d);
  }
  for (const std::filesystem::path& executable_dir : executable_dirs) {
    dirs.push_back(executable_dir / "plugins");
    dirs.push_back((executable_dir / ".." / "lib" / "gsdk" / "plugins").lexically_normal());
  }
  return dirs;
}

} // namespace gsdk::host
