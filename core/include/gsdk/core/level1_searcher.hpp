// level1_searcher.hpp - whole level-1 NMCS searches handed to a device in batches: NMCS at level 2 and
// above delegates every level-1 search it starts, so a GPU keeps thousands of them running at once,
// each a thread (the plugin's gsdk.cuda_level1_searches.v1 kernel).
//
// Search i is the level-1 NMCS of core's CPU frames from tasks[i].start whose n-th playout draws the
// stream (seed, tasks[i].first_stream + n): the result is a function of those alone, so a delegated
// search finds exactly what the CPU would have.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsdk/core/game_instance.hpp"

namespace gsdk::core {

struct Level1Task {
  const unsigned char* start; // a state blob of the game (state_size bytes)
  uint64_t first_stream;
};

struct Level1Outcome {
  int64_t score = 0;
  uint64_t playouts = 0;
  std::vector<uint32_t> moves; // the best sequence from the start state
};

class Level1Searcher {
public:
  virtual ~Level1Searcher() = default;
  // outcomes[i] = the level-1 search of task i. Throws std::runtime_error with the plugin's message.
  virtual void search(std::span<const Level1Task> tasks, std::span<Level1Outcome> outcomes) = 0;
  // E.g. "cuda device 0, 65536 level-1 searches per launch".
  virtual std::string describe() const = 0;
};

// Level-1 searches on CUDA device `device` through the plugin's table, up to `max_batch` per launch (fewer
// when their states and sequences would take more than 2 GiB).
// Throws std::invalid_argument when the plugin has no such table, std::runtime_error when the device
// cannot be used (or this build has no CUDA).
std::unique_ptr<Level1Searcher> make_cuda_level1_searcher(const GameInstance& game, uint64_t seed, int device,
                                                          uint32_t max_batch);

} // namespace gsdk::core
