// check_report.cpp - printing a check run and its JSON.
#include "conformance/check_report.hpp"

#include <fmt/format.h>

namespace gsdk::host::conformance {

CheckReport::CheckReport(const core::PluginTables& plugin, nlohmann::json parameters, std::string device_filter,
                         std::string devices, double timeout_seconds)
    : plugin_(plugin), parameters_(std::move(parameters)), device_filter_(std::move(device_filter)),
      devices_(std::move(devices)), timeout_seconds_(timeout_seconds) {}

std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n')
      out += " | ";
    else if (c == '\t' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void CheckReport::print_header(std::FILE* out) const {
  std::string params;
  for (const auto& [name, value] : parameters_.items())
    params += (params.empty() ? "" : ", ") + name + " = " + value.dump();
  std::fprintf(out, "gsdk check: %s %s (ABI %u.%u) from %s\n", plugin_.name().c_str(), plugin_.version().c_str(),
               plugin_.info.abi_major, plugin_.info.abi_minor, plugin_.path.c_str());
  std::fprintf(out, "parameters: %s\n", params.empty() ? "(none)" : params.c_str());
  std::fprintf(out, "devices: %s\n\n", devices_.c_str());
  std::fflush(out);
}

void CheckReport::add(const CheckSpec& check, const CheckResult& result, std::FILE* out, size_t name_width) {
  entries_.push_back({&check, result});
  std::string verdict;
  switch (result.status) {
  case CheckStatus::passed:
    verdict = fmt::format("passed ({:.2f} s)", result.seconds);
    break;
  case CheckStatus::failed:
    verdict = fmt::format("FAILED: {} ({:.2f} s)", one_line(result.reason), result.seconds);
    break;
  case CheckStatus::skipped:
    verdict = "skipped: " + one_line(result.reason);
    break;
  }
  std::fprintf(out, "%s\n", fmt::format("{:<{}}  {}", result.name, name_width, verdict).c_str());
  std::fflush(out);
}

bool CheckReport::any_failed() const {
  for (const Entry& e : entries_)
    if (e.result.status == CheckStatus::failed) return true;
  return false;
}

namespace {

size_t count_of(const auto& entries, CheckStatus status) {
  size_t n = 0;
  for (const auto& e : entries) n += e.result.status == status;
  return n;
}

} // namespace

void CheckReport::print_summary(std::FILE* out, double seconds) const {
  std::fprintf(out, "\nsummary: %zu passed, %zu failed, %zu skipped (%zu checks) in %.1f s\n",
               count_of(entries_, CheckStatus::passed), count_of(entries_, CheckStatus::failed),
               count_of(entries_, CheckStatus::skipped), entries_.size(), seconds);
  std::fflush(out);
}

nlohmann::json CheckReport::to_json(double seconds) const {
  nlohmann::json checks = nlohmann::json::array();
  for (const Entry& e : entries_)
    checks.push_back({{"name", e.result.name},
                      {"description", e.check->description},
                      {"status", status_name(e.result.status)},
                      {"reason", e.result.reason},
                      {"seconds", e.result.seconds}});
  return {{"gsdk_version", GSDK_VERSION},
          {"plugin",
           {{"name", plugin_.name()},
            {"version", plugin_.version()},
            {"path", plugin_.path},
            {"abi", fmt::format("{}.{}", plugin_.info.abi_major, plugin_.info.abi_minor)}}},
          {"parameters", parameters_},
          {"device", device_filter_},
          {"devices", devices_},
          {"timeout_seconds", timeout_seconds_},
          {"checks", checks},
          {"summary",
           {{"passed", count_of(entries_, CheckStatus::passed)},
            {"failed", count_of(entries_, CheckStatus::failed)},
            {"skipped", count_of(entries_, CheckStatus::skipped)},
            {"seconds", seconds}}},
          {"status", any_failed() ? "failed" : "passed"}};
}

} // namespace gsdk::host::conformance
