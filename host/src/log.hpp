// log.hpp - the host's messages to the user on stderr.
#pragma once

#include <string>

namespace gsdk::host {

enum class LogLevel { info, warning, error };

void log_line(LogLevel level, const std::string& message);

} // namespace gsdk::host
