// replay_results_fuzz.cpp - fuzzes a results file as `gsdk replay` reads it: JSON, then every field a replay
// uses, checked for type and range, then the file's claims about itself. Any input must give the stored
// playouts or a located error (`gsdk replay` exits 2 on both errors).
#include <nlohmann/json.hpp>

#include "commands/playout_results.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const gsdk::host::StoredPlayouts stored =
        gsdk::host::read_playout_results(nlohmann::json::parse(gsdk::fuzz::as_text(data, size)), "fuzz.json");
    gsdk::fuzz::require(!stored.start_state || stored.start_state->size() < size,
                        "the start state is text of the input");
    (void)gsdk::host::self_contradictions(stored);
  } catch (const nlohmann::json::exception&) {
  } catch (const gsdk::host::ResultsFileError&) {
  }
  return 0;
}
