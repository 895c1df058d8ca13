// hardware.hpp - a description of this machine for results files and bench reports.
#pragma once

#include <nlohmann/json.hpp>

namespace gsdk::host {

// {"cpu": model, "hardware_threads": n, "gpus": [{name, ordinal, sms, compute, memory_bytes}], "cuda": why-not}
nlohmann::json describe_hardware();

} // namespace gsdk::host
