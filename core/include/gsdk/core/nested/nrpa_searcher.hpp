// nrpa_searcher.hpp - whole NRPA searches of one level handed to a device in batches. NRPA's calls depend
// on each other, so a device gets its parallelism from the searches side by side: each round, every search
// hands over one call of the level below its lowest host level (or, when the device runs the top level,
// itself), thousands of them in one launch (the plugin's gsdk.cuda_nrpa_searches.v1 kernel).
//
// Call i is the NRPA search of the device's level from the initial state and calls[i].policy whose n-th
// playout draws the stream (seed, calls[i].first_stream + n), with the arithmetic of
// gsdk/nrpa/policy_softmax.hpp: its result is a function of those alone, so a device finds exactly what
// core's CPU NRPA would have.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

struct NrpaCall {
  const double* policy; // the game's code_count weights; read before search() returns
  uint64_t first_stream;
};

struct NrpaCallResult {
  int64_t score = 0;
  std::vector<uint32_t> moves; // the best sequence from the initial state
  uint64_t stopped_after = 0;  // the playouts it ran when a stop request (stop_at) ended it early; 0: it ran whole
};

class NrpaSearcher {
public:
  virtual ~NrpaSearcher() = default;
  // The level of the searches it runs (>= 1).
  virtual uint32_t level() const = 0;
  // results[i] = the search of calls[i]. Throws std::runtime_error with the plugin's message.
  virtual void search(std::span<const NrpaCall> calls, std::span<NrpaCallResult> results) = 0;
  // E.g. "cuda device 0, level-2 searches, up to 16384 per launch".
  virtual std::string describe() const = 0;
  // Asks the searches still running at `deadline` to end early, each with the best sequence it has (a device
  // whose plugin can stop its searches; the others run their searches whole, so a round may end later).
  virtual void stop_at(std::chrono::steady_clock::time_point /*deadline*/) {}
};

// NRPA searches of `level` (`iterations` calls per level, step `alpha`) on CUDA device `device` through the
// game's gsdk.cuda_nrpa_searches.v1 table, at most `max_batch` per launch; `host_threads` stage the policies
// and decode the sequences. Throws std::invalid_argument when the game lacks the table or move codes.
std::unique_ptr<NrpaSearcher> make_cuda_nrpa_searcher(const GameInstance& game, uint64_t seed, uint32_t level,
                                                      uint32_t iterations, double alpha, int device, uint32_t max_batch,
                                                      unsigned host_threads = 1);

} // namespace gsdk::core
