// level1_searcher.hpp - whole NMCS searches of the lowest levels handed to a device in batches: NMCS
// delegates every search of the searcher's level() it starts (level 1, or level 2 with the plugin's level-2
// table), so a GPU keeps thousands of them running at once, each a thread (the plugin's
// gsdk.cuda_level1_searches.v1 or gsdk.cuda_level2_searches.v1 kernel).
//
// At level 1, search i is the level-1 NMCS of core's CPU frames from tasks[i].start whose n-th playout draws
// the stream (seed, tasks[i].first_stream + n). At level 2 it is core's level-2 frame tasks[i].id of the
// search whose streams start at tasks[i].first_stream. Either way the result is a function of the task
// alone, so a delegated search finds exactly what the CPU would have.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

struct Level1Task {
  const unsigned char* start; // a state blob of the game (state_size bytes)
  uint64_t first_stream;      // level 1: the search's first playout's stream; level 2: its NMCS search's first
  uint64_t id = 0;            // level 2: the frame's place in its search's tree (see nmcs.cpp)
};

struct Level1Outcome {
  int64_t score = 0;
  uint64_t playouts = 0;
  std::vector<uint32_t> moves; // the best sequence from the start state
  // Level 2: the level-1 searches it ran and their moves, and the sequence the run's record would end with
  // of all the search would have offered it (the smallest of the best score's).
  uint64_t level1_searches = 0;
  uint64_t level1_steps = 0;
  std::vector<uint32_t> record_moves;
};

// Two batches may be in flight at once, one per slot, so that the caller can retire and refill one group
// of searches while the searcher works on the other's batch.
class Level1Searcher {
public:
  static constexpr uint32_t kSlots = 2;

  virtual ~Level1Searcher() = default;
  // The level of the searches it runs: 1, or 2.
  virtual uint32_t level() const { return 1; }
  // Starts the searches of `tasks` in `slot` (< kSlots, with no batch in flight) and may return before they
  // end. It reads the tasks and their start states before it returns, so the caller may change or free
  // them afterwards. Throws std::runtime_error with the plugin's message.
  virtual void start(uint32_t slot, std::span<const Level1Task> tasks) = 0;
  // Waits for the batch started in `slot`: outcomes[i] = the search of its task i (one outcome per task).
  // The slot is free again afterwards, also when it throws (std::runtime_error, the plugin's message).
  virtual void finish(uint32_t slot, std::span<Level1Outcome> outcomes) = 0;
  // E.g. "cuda device 0, 65536 level-1 searches per launch".
  virtual std::string describe() const = 0;
  // Asks the searches still running at `deadline` to end early, each with the best sequence it has (a device
  // whose plugin can stop its searches; the others run their searches whole, so a round may end later).
  virtual void stop_at(std::chrono::steady_clock::time_point /*deadline*/) {}

  // One batch, start to finish.
  void search(std::span<const Level1Task> tasks, std::span<Level1Outcome> outcomes) {
    start(0, tasks);
    finish(0, outcomes);
  }
};

// Level-1 searches on `threads` CPU threads besides the caller's, through the CPU evaluator of
// make_cpu_batch_evaluator (so they find what core's CPU frames find): what lets the pipelined NMCS
// driver run, and be tested, without a GPU.
std::unique_ptr<Level1Searcher> make_cpu_level1_searcher(const GameInstance& game, uint64_t seed, unsigned threads,
                                                         bool force_generic = false);

// Searches of `level` (1 or 2) on CUDA device `device` through the plugin's table, up to `max_batch` per
// launch (fewer when their states, sequences and scratch would take more than 2 GiB); states are staged
// and sequences decoded on up to `host_threads` threads.
// Throws std::invalid_argument when the plugin has no such table, std::runtime_error when the device
// cannot be used (or this build has no CUDA).
std::unique_ptr<Level1Searcher> make_cuda_level1_searcher(const GameInstance& game, uint64_t seed, int device,
                                                          uint32_t max_batch, unsigned host_threads = 1,
                                                          uint32_t level = 1);

} // namespace gsdk::core
