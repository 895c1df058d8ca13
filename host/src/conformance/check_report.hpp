// check_report.hpp - the report of a `gsdk check` run: a header naming the plugin, its parameters and
// devices; one line per check as it finishes ("passed", "FAILED: reason", "skipped: why"); a summary; and
// the same as JSON for --json.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/check_registry.hpp"
#include "conformance/run_check.hpp"

namespace gsdk::host::conformance {

class CheckReport {
public:
  // `parameters`: name -> value, as resolve_params gives them; `devices`: what the checks may use, in words.
  CheckReport(const core::PluginTables& plugin, nlohmann::json parameters, std::string device_filter,
              std::string devices, double timeout_seconds);

  // Prints the header to `out`.
  void print_header(std::FILE* out) const;
  // Records a result and prints its line to `out`; `name_width` aligns the verdicts.
  void add(const CheckSpec& check, const CheckResult& result, std::FILE* out, size_t name_width);
  // Prints the counts and the total time.
  void print_summary(std::FILE* out, double seconds) const;

  bool any_failed() const;
  nlohmann::json to_json(double seconds) const;

private:
  struct Entry {
    const CheckSpec* check;
    CheckResult result;
  };
  const core::PluginTables& plugin_;
  nlohmann::json parameters_;
  std::string device_filter_;
  std::string devices_;
  double timeout_seconds_;
  std::vector<Entry> entries_;
};

// One line of text: a reason's line breaks and tabs become " | " and spaces.
std::string one_line(const std::string& text);

} // namespace gsdk::host::conformance
