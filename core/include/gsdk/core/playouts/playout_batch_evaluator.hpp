// playout_batch_evaluator.hpp - what nested searches ask of playouts: the score of one random playout from
// each of many start states, in one call, so that a device (CPU threads now, a GPU later) sees batches.
//
// Task i is the playout (seed, tasks[i].stream) from tasks[i].start: its score is a function of those
// alone, never of the batch it came in, its position there or the thread that ran it, so a search that
// numbers its playouts deterministically gets the same result on any evaluator and thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

struct PlayoutTask {
  const unsigned char* start; // a state blob of the game (state_size bytes), not necessarily terminal
  uint64_t stream;
};

class PlayoutBatchEvaluator {
public:
  virtual ~PlayoutBatchEvaluator() = default;
  // scores[i] = the score of task i's playout. Throws std::runtime_error with the plugin's message.
  virtual void evaluate(std::span<const PlayoutTask> tasks, std::span<int64_t> scores) = 0;
  // The moves of the playout (seed, stream) from `start`, exactly as evaluate played it.
  virtual std::vector<uint32_t> moves_of(const StateBlob& start, uint64_t stream) const = 0;
  // E.g. "cpu, 2 threads (plugin batch playouts)".
  virtual std::string describe() const = 0;
  // "batch" (the plugin's playout table) or "generic" (the per-state table).
  virtual std::string engine() const = 0;
};

// Playouts on `threads` CPU threads (the calling one included): through the plugin's CPU playout table,
// one playout per call with its replay table for moves_of, when it has both and !force_generic; else
// generic_playout. Small batches run on the calling thread alone (starting threads would cost more).
std::unique_ptr<PlayoutBatchEvaluator> make_cpu_batch_evaluator(const GameInstance& game, uint64_t seed,
                                                                unsigned threads, bool force_generic = false);

} // namespace gsdk::core
