// log.hpp - the host's messages to the user on stderr, prefixed "gsdk: error: ", "gsdk: warning: " or "gsdk: ".
#pragma once

#include <cstdio>
#include <string>

namespace gsdk::host {

enum class LogLevel { info, warning, error };

inline void log_line(LogLevel level, const std::string& message) {
  const char* prefix = level == LogLevel::error     ? "gsdk: error: "
                       : level == LogLevel::warning ? "gsdk: warning: "
                                                    : "gsdk: ";
  std::fprintf(stderr, "%s%s\n", prefix, message.c_str());
}

} // namespace gsdk::host
