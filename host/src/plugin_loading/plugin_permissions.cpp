// plugin_permissions.cpp - the ownership and mode rule of plugin_permissions.hpp, from stat(2).
#include "plugin_loading/plugin_permissions.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

std::string user_name(uid_t uid) {
  const passwd* entry = ::getpwuid(uid);
  return entry && entry->pw_name ? fmt::format("{} ({})", uid, entry->pw_name) : std::to_string(uid);
}

} // namespace

std::optional<std::string> unsafe_permissions(const std::filesystem::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return fmt::format("cannot be read: {}", std::strerror(errno));
  const bool folder = S_ISDIR(status.st_mode);
  const std::string what = folder ? "a plugin in it" : "this plugin";
  const uid_t user = ::geteuid();
  if (status.st_uid != user && status.st_uid != 0)
    return fmt::format("owned by user {}, not by you (user {}){}: they could replace {}; {}", user_name(status.st_uid),
                       user_name(user), user == 0 ? "" : " or root", what, kUnsafePluginOverride);
  if (folder && (status.st_mode & S_ISVTX)) return std::nullopt;
  const unsigned mode = status.st_mode & 07777;
  if (status.st_mode & S_IWOTH)
    return fmt::format("writable by others (mode {:04o}): anyone could replace {}; {}", mode, what,
                       kUnsafePluginOverride);
  if (status.st_mode & S_IWGRP)
    return fmt::format("writable by its group (mode {:04o}): every member of group {} could replace {}; {}", mode,
                       status.st_gid, what, kUnsafePluginOverride);
  return std::nullopt;
}

} // namespace gsdk::host
