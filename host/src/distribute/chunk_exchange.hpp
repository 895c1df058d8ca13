// chunk_exchange.hpp - guided self-scheduling of a run's blocks over the ranks of an MPI job. Rank 0 holds the
// blocks still to run and hands them out in chunks as ranks ask: a chunk is about remaining / (2 * ranks) blocks
// (at least one), so early chunks are large (few messages) and the last ones small (ranks finish together though
// blocks differ in cost). A rank asks for its next chunk with the report of the chunk it finished (an opaque
// text: the chunk's partial result), which rank 0 hands to on_report. Rank 0 works too; its own requests are served
// in its own thread, and a thread of its own answers the other ranks (MPI_Iprobe and a short sleep while none
// asks, so that the wait takes no CPU core from the workers).
//
// Every rank runs the same loop:
//   ChunkExchange exchange(world, world.place().rank == 0 ? blocks_left : ChunkExchange::Chunk{});
//   if (world.place().rank == 0) exchange.on_report(merge_into_progress);
//   std::string report;
//   for (auto chunk = exchange.next(report); !chunk.empty(); chunk = exchange.next(report)) report = run(chunk);
//   exchange.finish();
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distribute/mpi_world.hpp"

namespace gsdk::host {

// The guided chunk size for this many blocks left among this many ranks: remaining / (2 * ranks), at least
// `smallest` (and 1) and at most `remaining`.
std::size_t guided_chunk_size(std::size_t remaining, int ranks, std::size_t smallest = 1);

class ChunkExchange {
public:
  using Chunk = std::vector<std::uint64_t>;
  using ReportHandler = std::function<void(int rank, const Chunk& chunk, const std::string& report)>;

  // The message tags exchanges take, two each: the n-th exchange a rank makes has the same two on every rank, and
  // differs from the exchanges before it, so that a rank that has moved on to the next exchange is not answered by
  // the previous one, still serving a slower rank. Tags repeat after kTagCycle exchanges.
  static constexpr int kTagCycle = 8000;
  static constexpr int kFirstTag = MpiWorld::kLastReservedTag + 1;
  static constexpr int kLastTag = kFirstTag + 2 * kTagCycle - 1; // within the 32767 every MPI allows

  // Every rank makes the same exchanges in the same order. `blocks`: on rank 0 the blocks still to run, in the
  // order they are handed out; ignored elsewhere. No chunk but the last holds fewer than `smallest_chunk` blocks.
  ChunkExchange(MpiWorld& world, Chunk blocks, std::size_t smallest_chunk = 1);
  // An exchange left before finish() (an exception) leaves the other ranks waiting for it: the world is told to
  // end the whole job at exit (MpiWorld::abort_at_exit) rather than wait for them.
  ~ChunkExchange();

  ChunkExchange(const ChunkExchange&) = delete;
  ChunkExchange& operator=(const ChunkExchange&) = delete;

  // Any rank, from one thread: delivers `report` (the text of the chunk this rank just finished; ignored on the
  // first call, when it holds none) and returns this rank's next chunk; empty when there is no more work, and from
  // then on. Rank 0 rethrows here an exception its report handler threw while answering another rank.
  Chunk next(const std::string& report);

  // Rank 0, before its first next(): called for every finished chunk of every rank (rank 0's included), from one
  // thread at a time; a chunk's report reaches it after the rank has its next chunk.
  void on_report(ReportHandler handler);
  // Rank 0: the chunk each rank holds now, by rank (empty: none), for error messages.
  std::vector<Chunk> in_flight() const;
  // Rank 0: hand out no more chunks (a stop request); the chunks out are still reported. Safe from any thread.
  void stop();
  // Every rank, once its next() returned no chunk: on rank 0, returns once every rank has been told there is no
  // more work and every report has been handled, and rethrows an exception of the report handler.
  void finish();

private:
  struct Handout {
    Chunk finished; // the chunk the asking rank reported
    Chunk next;     // the chunk it gets
  };

  Handout hand_out(int rank);
  void handle_report(int rank, const Chunk& chunk, const std::string& report);
  void serve_other_ranks();
  Chunk ask_rank_0(const std::string& report);

  MpiWorld& world_;
  const int rank_;
  const int ranks_;
  const std::size_t smallest_chunk_; // blocks
  const int request_tag_;    // a rank's report and request, to rank 0
  const int chunk_tag_;      // rank 0's answer: the rank's next chunk
  bool told_done_ = false;   // this rank's next() returned no chunk
  bool holds_chunk_ = false; // this rank (not rank 0) holds a chunk it will report
  bool finished_ = false;    // finish() returned with no rank left waiting

  // Rank 0's state, under mutex_.
  mutable std::mutex mutex_;
  Chunk remaining_;
  std::size_t handed_out_ = 0; // remaining_[0, handed_out_) are out
  std::vector<Chunk> holding_; // by rank
  std::vector<bool> done_;     // by rank: told there is no more work
  int other_ranks_done_ = 0;
  std::exception_ptr failure_; // the report handler's, or the serving thread's
  std::atomic<bool> stopped_{false};
  std::atomic<bool> abandoned_{false}; // the exchange is being destroyed before finish()

  std::mutex report_mutex_; // one report handler call at a time
  ReportHandler handler_;
  std::thread server_; // rank 0 of several: answers the other ranks
};

} // namespace gsdk::host
