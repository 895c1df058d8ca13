// isolated_check.hpp - checks run each in a child process (child_process.hpp) with a time limit, so that a
// plugin that crashes or hangs fails that check and the report goes on; and the setup probe that makes a
// game instance and looks for GPUs in a child too (CUDA cannot be used in a process forked after it started,
// so the parent never starts it).
#pragma once

#include <string>

#include "conformance/check_registry.hpp"
#include "conformance/run_check.hpp"

namespace gsdk::host::conformance {

// Runs `check` in a child limited to `timeout_seconds` (applicability is decided here, without a child).
// A child that crashes, hangs or exits without a verdict fails the check, saying how it ended and what it
// printed last.
CheckResult run_check_in_child(const CheckSpec& check, const CheckSubject& subject, double timeout_seconds);

struct SubjectProbe {
  std::string problem;                    // non-empty: the game instance could not be made (the plugin's message)
  std::vector<core::CudaDeviceInfo> gpus; // usable GPUs, when asked for
  std::string no_gpu_reason;
};

// Makes (and destroys) a game instance with the subject's parameters and, with `find_gpus`, lists the CUDA
// devices, in a child limited to `timeout_seconds`.
SubjectProbe probe_subject(const CheckSubject& subject, bool find_gpus, double timeout_seconds);

} // namespace gsdk::host::conformance
