// replay_results_fuzz.cpp - fuzzes a results file as `gsdk replay` reads it: JSON, then the fields a replay
// needs. Any input must give a request or a JSON error (`gsdk replay` exits 2 on both errors).
#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "report/replay_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const gsdk::host::ReplayRequest r =
        gsdk::host::read_replay_request(nlohmann::json::parse(gsdk::fuzz::as_text(data, size)));
    gsdk::fuzz::require(!r.start_state || r.start_state->size() < size, "the start state is text of the input");
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
