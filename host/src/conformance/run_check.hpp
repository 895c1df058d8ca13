// run_check.hpp - one check run in the calling process: whether it applies (tables, devices), then its
// verdict with a reason and the time it took.
#pragma once

#include <optional>
#include <string>

#include "conformance/check_context.hpp"
#include "conformance/check_registry.hpp"

namespace gsdk::host::conformance {

enum class CheckStatus { passed, failed, skipped };

// "passed", "failed", "skipped".
const char* status_name(CheckStatus status);

struct CheckResult {
  std::string name;
  CheckStatus status = CheckStatus::skipped;
  std::string reason; // failed: what was wrong; skipped: why it did not apply
  double seconds = 0;
};

// Why `check` does not apply to the subject (a table it needs is missing, no GPU, a device filter that
// leaves it out), or nullopt. Reads only the tables bound at load time: safe before any fork.
std::optional<std::string> skip_reason(const CheckSpec& check, const CheckSubject& subject);

// Runs the check here, applicability first. Exceptions from the plugin or the core become failures.
CheckResult run_check(const CheckSpec& check, const CheckSubject& subject);

} // namespace gsdk::host::conformance
