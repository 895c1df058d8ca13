// plugin_call.hpp - the ABI's error-buffer protocol, written once. A plugin table's entry takes a buffer for its
// message and returns a status (gsdk_plugin.h); call_entry gives it the host's one buffer size and returns what it
// reported, and call_plugin turns a failure into the exception every caller throws: "<what> failed: <message>",
// `what` in the caller's words (the game, the entry, the range, the device: where it happened), formatted only
// when the call failed. An entry is any callable (char* error, uint32_t error_size) -> int32_t.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "gsdk/gsdk_plugin.h"

namespace gsdk::core {

// Bytes of every error buffer the host hands a plugin: room for a located message (a file, a line, a value).
inline constexpr uint32_t kPluginMessageSize = 2048;

// A failed call: the entry's status (GSDK_ERR_*) and its message.
struct PluginFailure {
  int32_t status;
  std::string message;
};

template <typename Entry> std::optional<PluginFailure> call_entry(Entry&& entry) {
  char message[kPluginMessageSize] = {};
  const int32_t status = std::forward<Entry>(entry)(message, kPluginMessageSize);
  if (status == GSDK_OK) return std::nullopt;
  message[kPluginMessageSize - 1] = '\0'; // a plugin that filled the buffer to the end
  return PluginFailure{status, message};
}

// Calls entry; on failure throws std::runtime_error(what() + " failed: " + message).
template <typename Entry, typename What> void call_plugin(Entry&& entry, What&& what) {
  if (auto failure = call_entry(std::forward<Entry>(entry)))
    throw std::runtime_error(std::forward<What>(what)() + " failed: " + failure->message);
}

} // namespace gsdk::core
