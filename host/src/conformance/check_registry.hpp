// check_registry.hpp - every conformance check by its stable name (e.g. "rules.random_games_end"), with a
// one-line description, the tables it needs and whether it needs a GPU: the one list that `gsdk check`
// runs and the test suite instantiates.
#pragma once

#include <string>
#include <vector>

#include "conformance/check_context.hpp"
#include "conformance/findings.hpp"

namespace gsdk::host::conformance {

struct CheckSpec {
  const char* name;                // "<group>.<what>", stable: scripts and --only select by it
  const char* description;         // one line: what must hold
  std::vector<const char*> tables; // ABI tables the check needs, every one (e.g. GSDK_TABLE_CPU_PLAYOUTS)
  bool uses_gpu = false;           // runs something on a CUDA device
  void (*run)(CheckContext& context, Findings& findings) = nullptr;
};

// Every check, grouped by what it tests: abi, rules, playouts, determinism, perft, qlearning, nested, cuda,
// environment.
const std::vector<CheckSpec>& all_checks();

// The checks whose names match one of the comma-separated shell patterns (e.g. "rules.*,perft.cpu_table"),
// in registry order; every check for an empty string.
std::vector<const CheckSpec*> select_checks(const std::string& patterns);

} // namespace gsdk::host::conformance
