// config_error.hpp - the located message an experiment file is refused with, for the config tests; a
// file that parses is a test failure.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms/run_experiment.hpp"

namespace gsdk::test {

inline std::string config_error_of(const std::string& text, const std::string& file,
                                   const std::vector<std::string>& overrides = {},
                                   const std::vector<host::OptionOverride>& options = {}) {
  try {
    host::parse_experiment(text, file, overrides, options);
  } catch (const host::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

} // namespace gsdk::test
