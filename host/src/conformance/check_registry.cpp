// check_registry.cpp - the list of every check, and selecting checks by name.
#include "conformance/check_registry.hpp"

#include <fnmatch.h>

#include <sstream>

#include "conformance/check_groups.hpp"

namespace gsdk::host::conformance {

const std::vector<CheckSpec>& all_checks() {
  static const std::vector<CheckSpec> checks = [] {
    std::vector<CheckSpec> all;
    for (auto group : {abi_checks, rules_checks, playout_checks, determinism_checks, perft_checks, perft_key_checks, qlearning_checks,
                       nested_checks, cuda_checks, observation_checks, batched_step_checks}) {
      std::vector<CheckSpec> some = group();
      all.insert(all.end(), some.begin(), some.end());
    }
    return all;
  }();
  return checks;
}

std::vector<const CheckSpec*> select_checks(const std::string& patterns) {
  std::vector<std::string> wanted;
  std::stringstream list(patterns);
  for (std::string p; std::getline(list, p, ',');)
    if (!p.empty()) wanted.push_back(p);
  std::vector<const CheckSpec*> out;
  for (const CheckSpec& check : all_checks()) {
    bool match = wanted.empty();
    for (const std::string& p : wanted) match = match || fnmatch(p.c_str(), check.name, 0) == 0;
    if (match) out.push_back(&check);
  }
  return out;
}

} // namespace gsdk::host::conformance
