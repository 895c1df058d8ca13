// log.cpp - prefixed messages on stderr.
#include "log.hpp"

#include <cstdio>

namespace gsdk::host {

void log_line(LogLevel level, const std::string& message) {
  const char* prefix = level == LogLevel::error ? "gsdk: error: " : level == LogLevel::warning ? "gsdk: warning: " : "gsdk: ";
  std::fprintf(stderr, "%s%s\n", prefix, message.c_str());
}

} // namespace gsdk::host
