// python_errors.hpp - the module's own error classes beside the host's (host::ConfigError, host::OutputError), which
// module.cpp registers as gsdk.PluginError and friends.
#pragma once

#include <stdexcept>

namespace gsdk::python {

// A game no loaded plugin provides, or a plugin the call cannot use: gsdk.PluginError.
class PluginError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace gsdk::python
