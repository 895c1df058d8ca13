// isolated_check.cpp - a check's verdict, and the setup probe's findings, as one JSON line from a child.
#include "conformance/isolated_check.hpp"

#include <nlohmann/json.hpp>

#include "conformance/child_process.hpp"

namespace gsdk::host::conformance {

namespace {

CheckStatus status_from_name(const std::string& name) {
  if (name == "passed") return CheckStatus::passed;
  if (name == "failed") return CheckStatus::failed;
  return CheckStatus::skipped;
}

} // namespace

CheckResult run_check_in_child(const CheckSpec& check, const CheckSubject& subject, double timeout_seconds) {
  if (auto why = skip_reason(check, subject)) return {check.name, CheckStatus::skipped, *why, 0};
  const ChildRun run = run_in_child(
      [&] {
        const CheckResult r = run_check(check, subject);
        return nlohmann::json{{"status", status_name(r.status)}, {"reason", r.reason}, {"seconds", r.seconds}}.dump();
      },
      timeout_seconds);
  CheckResult result{check.name, CheckStatus::failed, "", run.seconds};
  if (run.end != ChildRun::End::returned) {
    result.reason = describe_ending(run, timeout_seconds);
    return result;
  }
  try {
    const nlohmann::json verdict = nlohmann::json::parse(run.result);
    result.status = status_from_name(verdict.at("status").get<std::string>());
    result.reason = verdict.at("reason").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    result.reason = "the check's process returned a garbled verdict: " + std::string(e.what());
  }
  return result;
}

SubjectProbe probe_subject(const CheckSubject& subject, bool find_gpus, double timeout_seconds) {
  const ChildRun run = run_in_child(
      [&] {
        nlohmann::json out = {{"problem", ""}, {"gpus", nlohmann::json::array()}, {"why", ""}};
        try {
          const core::GameInstance game(subject.plugin->tables, subject.parameters);
        } catch (const std::exception& e) {
          out["problem"] = e.what();
        }
        if (find_gpus) {
          std::string why;
          for (const core::CudaDeviceInfo& d : core::cuda_devices(why))
            out["gpus"].push_back({{"ordinal", d.ordinal},
                                   {"name", d.name},
                                   {"multiprocessors", d.multiprocessors},
                                   {"compute_major", d.compute_major},
                                   {"compute_minor", d.compute_minor},
                                   {"memory_bytes", d.memory_bytes}});
          out["why"] = why;
        }
        return out.dump();
      },
      timeout_seconds);
  SubjectProbe probe;
  if (run.end != ChildRun::End::returned) {
    probe.problem = "making a game instance and looking for GPUs " + describe_ending(run, timeout_seconds);
    return probe;
  }
  const nlohmann::json out = nlohmann::json::parse(run.result);
  probe.problem = out.at("problem").get<std::string>();
  probe.no_gpu_reason = out.at("why").get<std::string>();
  for (const nlohmann::json& g : out.at("gpus"))
    probe.gpus.push_back({g.at("ordinal").get<int>(), g.at("name").get<std::string>(),
                          g.at("multiprocessors").get<int>(), g.at("compute_major").get<int>(),
                          g.at("compute_minor").get<int>(), g.at("memory_bytes").get<uint64_t>()});
  if (find_gpus && probe.gpus.empty() && probe.no_gpu_reason.empty()) probe.no_gpu_reason = "none found";
  return probe;
}

} // namespace gsdk::host::conformance
