// chunk_exchange.cpp - rank 0 cuts chunks from the front of its blocks under one mutex, for its own thread and for
// the serving thread alike; a report is handed to the handler after its rank has its next chunk, so that a slow
// merge on rank 0 does not keep that rank idle.
#include "distribute/chunk_exchange.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <utility>

namespace gsdk::host {
namespace {

// The first of the two tags of the exchange this process makes next.
int next_exchange_tags() {
  static std::atomic<int> made{0};
  return ChunkExchange::kFirstTag + 2 * (made++ % ChunkExchange::kTagCycle);
}

// How long a waiting thread sleeps between two looks for a message: short against a chunk's run time, long enough
// that waiting costs a fraction of a percent of a core.
constexpr auto kPollInterval = std::chrono::microseconds(250);
// The exit status of every rank of a job that a rank left midway: a failed run's.
constexpr int kFailedRunStatus = 1;

// Block numbers travel as their bytes: every rank runs the same gsdk build on the same architecture.
std::string encode(const ChunkExchange::Chunk& chunk) {
  std::string bytes(chunk.size() * sizeof(std::uint64_t), '\0');
  if (!chunk.empty()) std::memcpy(bytes.data(), chunk.data(), bytes.size());
  return bytes;
}

ChunkExchange::Chunk decode(const std::string& bytes) {
  if (bytes.size() % sizeof(std::uint64_t) != 0)
    throw std::runtime_error("rank 0 sent a chunk of " + std::to_string(bytes.size()) +
                             " bytes, not a whole number of 8-byte block numbers");
  ChunkExchange::Chunk chunk(bytes.size() / sizeof(std::uint64_t));
  if (!chunk.empty()) std::memcpy(chunk.data(), bytes.data(), bytes.size());
  return chunk;
}

} // namespace

std::size_t guided_chunk_size(std::size_t remaining, int ranks, std::size_t smallest) {
  const std::size_t guided = remaining / (2 * static_cast<std::size_t>(std::max(ranks, 1)));
  return std::min(remaining, std::max<std::size_t>({guided, smallest, 1}));
}

ChunkExchange::ChunkExchange(MpiWorld& world, Chunk blocks, std::size_t smallest_chunk)
    : world_(world), rank_(world.place().rank), ranks_(world.place().ranks), smallest_chunk_(smallest_chunk),
      request_tag_(next_exchange_tags()), chunk_tag_(request_tag_ + 1) {
  if (rank_ != 0) return;
  remaining_ = std::move(blocks);
  holding_.resize(static_cast<std::size_t>(ranks_));
  done_.resize(static_cast<std::size_t>(ranks_));
}

ChunkExchange::~ChunkExchange() {
  if (finished_) return;
  abandoned_ = true;
  if (server_.joinable()) server_.join();
  if (world_.distributed())
    world_.abort_at_exit(kFailedRunStatus, "rank " + std::to_string(rank_) + " left its chunk exchange before the end");
}

ChunkExchange::Chunk ChunkExchange::next(const std::string& report) {
  if (told_done_) return {};
  Chunk chunk;
  if (rank_ != 0) {
    chunk = ask_rank_0(report);
    holds_chunk_ = !chunk.empty();
  } else {
    if (ranks_ > 1 && !server_.joinable()) server_ = std::thread(&ChunkExchange::serve_other_ranks, this);
    Handout handout;
    {
      const std::lock_guard lock(mutex_);
      handout = hand_out(0);
    }
    if (!handout.finished.empty()) handle_report(0, handout.finished, report);
    chunk = std::move(handout.next);
    const std::lock_guard lock(mutex_);
    if (failure_) std::rethrow_exception(failure_);
  }
  told_done_ = chunk.empty();
  return chunk;
}

void ChunkExchange::on_report(ReportHandler handler) {
  {
    const std::lock_guard lock(mutex_);
    if (rank_ != 0 || handed_out_ > 0)
      throw std::logic_error("ChunkExchange::on_report: rank 0 sets the report handler before it hands out chunks");
  }
  const std::lock_guard lock(report_mutex_);
  handler_ = std::move(handler);
}

std::vector<ChunkExchange::Chunk> ChunkExchange::in_flight() const {
  const std::lock_guard lock(mutex_);
  return holding_;
}

void ChunkExchange::stop() {
  stopped_ = true;
}

void ChunkExchange::finish() {
  if (!told_done_)
    throw std::logic_error("ChunkExchange::finish: rank " + std::to_string(rank_) +
                           " calls next() until it returns no chunk before finish()");
  if (server_.joinable()) server_.join();
  const std::lock_guard lock(mutex_);
  finished_ = rank_ != 0 || other_ranks_done_ == ranks_ - 1;
  if (failure_) std::rethrow_exception(failure_);
}

ChunkExchange::Handout ChunkExchange::hand_out(int rank) {
  const auto at = static_cast<std::size_t>(rank);
  Handout handout;
  handout.finished = std::exchange(holding_[at], {});
  if (!stopped_ && !failure_ && handed_out_ < remaining_.size()) {
    const std::size_t size = guided_chunk_size(remaining_.size() - handed_out_, ranks_, smallest_chunk_);
    const auto first = remaining_.begin() + static_cast<std::ptrdiff_t>(handed_out_);
    handout.next.assign(first, first + static_cast<std::ptrdiff_t>(size));
    handed_out_ += size;
    holding_[at] = handout.next;
  } else if (!done_[at]) {
    done_[at] = true;
    if (rank != 0) ++other_ranks_done_;
  }
  return handout;
}

void ChunkExchange::handle_report(int rank, const Chunk& chunk, const std::string& report) {
  const std::lock_guard lock(report_mutex_);
  if (!handler_) return;
  {
    // After a failure the run is lost: later reports are not merged into it.
    const std::lock_guard state_lock(mutex_);
    if (failure_) return;
  }
  try {
    handler_(rank, chunk, report);
  } catch (...) {
    const std::lock_guard state_lock(mutex_);
    failure_ = std::current_exception();
  }
}

void ChunkExchange::serve_other_ranks() {
  try {
    while (!abandoned_) {
      {
        const std::lock_guard lock(mutex_);
        if (other_ranks_done_ == ranks_ - 1) return;
      }
      const std::optional<int> sender = world_.waiting_sender(request_tag_);
      if (!sender) {
        std::this_thread::sleep_for(kPollInterval);
        continue;
      }
      const std::string report = world_.receive(*sender, request_tag_);
      Handout handout;
      {
        const std::lock_guard lock(mutex_);
        handout = hand_out(*sender);
      }
      world_.send(*sender, chunk_tag_, encode(handout.next));
      if (!handout.finished.empty()) handle_report(*sender, handout.finished, report);
    }
  } catch (...) {
    const std::lock_guard lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
}

ChunkExchange::Chunk ChunkExchange::ask_rank_0(const std::string& report) {
  world_.send(0, request_tag_, holds_chunk_ ? report : std::string());
  while (!world_.waiting_sender(chunk_tag_)) std::this_thread::sleep_for(kPollInterval);
  return decode(world_.receive(0, chunk_tag_));
}

} // namespace gsdk::host
