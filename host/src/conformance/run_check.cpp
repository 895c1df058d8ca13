// run_check.cpp - applicability and one in-process run of a check.
#include "conformance/run_check.hpp"

#include <chrono>
#include <exception>

#include <fmt/format.h>

#include "conformance/capability_tables.hpp"

namespace gsdk::host::conformance {

const char* status_name(CheckStatus status) {
  switch (status) {
  case CheckStatus::passed:
    return "passed";
  case CheckStatus::failed:
    return "failed";
  default:
    return "skipped";
  }
}

std::optional<std::string> skip_reason(const CheckSpec& check, const CheckSubject& subject) {
  for (const char* table : check.tables)
    if (!has_table(subject.plugin->tables, table)) return fmt::format("no {} table", table);
  if (check.uses_gpu && subject.devices == DeviceFilter::cpu) return "--device cpu";
  if (!check.uses_gpu && subject.devices == DeviceFilter::cuda) return "--device cuda checks only what runs on a GPU";
  if (check.uses_gpu && subject.gpus.empty()) return "needs a CUDA device: " + subject.no_gpu_reason;
  return std::nullopt;
}

CheckResult run_check(const CheckSpec& check, const CheckSubject& subject) {
  CheckResult result;
  result.name = check.name;
  if (auto why = skip_reason(check, subject)) {
    result.reason = *why;
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  Findings findings;
  try {
    CheckContext context(subject);
    check.run(context, findings);
  } catch (const CheckEnded&) {
  } catch (const std::exception& e) {
    findings.fail(e.what());
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (findings.failed()) {
    result.status = CheckStatus::failed;
    result.reason = findings.reason();
  } else if (findings.skip_reason()) {
    result.reason = *findings.skip_reason();
  } else {
    result.status = CheckStatus::passed;
  }
  return result;
}

} // namespace gsdk::host::conformance
