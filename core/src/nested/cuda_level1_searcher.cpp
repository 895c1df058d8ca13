// cuda_level1_searcher.cpp - level-1 (or level-2) NMCS searches on a GPU through the plugin's
// gsdk.cuda_level1_searches.v1 (or gsdk.cuda_level2_searches.v1) table: states, stream numbers (and frame
// ids) copied in through pinned buffers, one launch per chunk, results and best sequences copied back. Each slot is a
// lane of its own (stream, pinned and device buffers), so two batches can be in flight at once: start() enqueues a
// batch's last chunk on its lane's stream and returns, finish() waits for that stream alone. Written against
// CudaStream, DeviceArena and PinnedBuffer (states are staged and sequences decoded on the host threads),
// so it builds (and says why it cannot run) without the CUDA toolkit too. When the plugin can stop its
// searches (ABI 1.6), every launch polls one stop flag, which a deadline raises.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

#include "nested/search_deadline.hpp"
#include "runtime/batch_split.hpp"
#include "runtime/device_sequence.hpp"

namespace gsdk::core {

namespace {

// Device memory (and as much pinned host memory) for one launch's states and sequences: enough for the
// ~250,000 threads an H100 holds at once in cubes up to d = 10, under a tenth of its memory. Each of the
// two lanes has this much.
constexpr uint64_t kLaunchBytes = uint64_t{2} << 30;
// Staging a state and decoding a sequence are a few kilobytes of copying each: below this many searches a
// thread, starting more threads costs more than it saves.
constexpr size_t kSearchesPerCopyThread = 4096;

// What one search takes in buffers at `level`: its state, stream, result and sequence (level 2: also its
// frame id, its record sequence and the kernel's scratch).
struct SearchBytes {
  uint64_t result;
  uint64_t level2_extra;
  uint64_t scratch;
};

SearchBytes search_bytes(const GameInstance& game, uint32_t level, uint32_t max_moves) {
  if (level == 1) return {sizeof(gsdk_level1_result), 0, 0};
  return {sizeof(gsdk_level2_result), sizeof(uint64_t) + uint64_t{max_moves} * 4,
          game.tables().cuda_level2_searches->scratch_bytes(game.handle(), 1)};
}

// Searches per launch: at most what the caller can hand out at once and what fits in kLaunchBytes.
uint32_t launch_size(const GameInstance& game, uint32_t level, uint32_t max_moves, uint32_t wanted) {
  const SearchBytes b = search_bytes(game, level, max_moves);
  const uint64_t per_search =
      game.state_size() + sizeof(uint64_t) + uint64_t{max_moves} * 4 + b.result + b.level2_extra + b.scratch;
  return static_cast<uint32_t>(std::clamp<uint64_t>(kLaunchBytes / per_search, 1, std::max(wanted, 1u)));
}

// A lane's buffers for up to `capacity` searches: host staging (pinned, so copies are asynchronous) and
// their device twins, on a stream of its own.
struct Lane {
  Lane(int device, uint64_t capacity, uint32_t state_size, uint32_t max_moves, const SearchBytes& b, uint64_t scratch)
      : stream(device), states_host(capacity * state_size), streams_host(capacity * sizeof(uint64_t)),
        ids_host(b.level2_extra ? capacity * sizeof(uint64_t) : 0), results_host(capacity * b.result),
        moves_host(capacity * max_moves * sizeof(uint32_t)),
        record_moves_host(b.level2_extra ? capacity * max_moves * sizeof(uint32_t) : 0),
        arena(device, states_host.size() + streams_host.size() + ids_host.size() + results_host.size() +
                          moves_host.size() + record_moves_host.size() + scratch + 8 * 256),
        states_device(arena.allocate(states_host.size())),
        streams_device(static_cast<uint64_t*>(arena.allocate(streams_host.size()))),
        ids_device(static_cast<uint64_t*>(arena.allocate(ids_host.size()))),
        results_device(arena.allocate(results_host.size())),
        moves_device(static_cast<uint32_t*>(arena.allocate(moves_host.size()))),
        record_moves_device(static_cast<uint32_t*>(arena.allocate(record_moves_host.size()))),
        scratch_device(arena.allocate(scratch)), scratch_size(scratch) {}

  CudaStream stream;
  PinnedBuffer states_host;
  PinnedBuffer streams_host;
  PinnedBuffer ids_host;
  PinnedBuffer results_host;
  PinnedBuffer moves_host;
  PinnedBuffer record_moves_host;
  DeviceArena arena;
  void* states_device;
  uint64_t* streams_device;
  uint64_t* ids_device;
  void* results_device;
  uint32_t* moves_device;
  uint32_t* record_moves_device;
  void* scratch_device;
  uint64_t scratch_size;
  bool busy = false;                // a batch was started and not finished
  std::vector<Level1Outcome> early; // the batch's chunks before the last, run to the end by start()
  uint32_t enqueued = 0;            // searches of the batch's last chunk, on the stream
};

class CudaLevel1Searcher final : public Level1Searcher {
public:
  CudaLevel1Searcher(const GameInstance& game, uint64_t seed, int device, uint32_t max_batch, unsigned host_threads,
                     uint32_t level)
      : game_(game), table_(*game.tables().cuda_level1_searches), seed_(seed), device_(device), level_(level),
        max_moves_(table_.max_game_length(game.handle())), max_batch_(launch_size(game, level, max_moves_, max_batch)),
        host_threads_(std::max(host_threads, 1u)) {
    if (level == 1 ? stoppable_run(table_) != nullptr : stoppable_run(*game.tables().cuda_level2_searches) != nullptr)
      deadline_ = std::make_unique<SearchDeadline>(device);
    const SearchBytes bytes = search_bytes(game, level, max_moves_);
    const uint64_t scratch =
        level == 1 ? 0 : game.tables().cuda_level2_searches->scratch_bytes(game.handle(), max_batch_);
    for (auto& lane : lanes_)
      lane = std::make_unique<Lane>(device, max_batch_, game.state_size(), max_moves_, bytes, scratch);
  }

  uint32_t level() const override { return level_; }

  void stop_at(std::chrono::steady_clock::time_point deadline) override {
    if (deadline_) deadline_->arm(deadline);
  }

  // The lanes' copies must not land in buffers that are gone: wait for what is still on their streams.
  ~CudaLevel1Searcher() override {
    for (auto& lane : lanes_) {
      try {
        lane->stream.synchronize();
      } catch (const std::runtime_error&) {
        // The error was (or would have been) reported by finish(); there is nothing left to wait for.
      }
    }
  }

  void start(uint32_t slot, std::span<const Level1Task> tasks) override {
    Lane& lane = lane_of(slot);
    if (lane.busy) throw std::logic_error(fmt::format("CUDA level-1 searcher: slot {} is not free", slot));
    lane.busy = true;
    lane.early.clear();
    lane.enqueued = 0;
    // Chunks before the last reuse the lane's buffers, so each must end before the next is copied in.
    size_t first = 0;
    for (; tasks.size() - first > max_batch_; first += max_batch_) {
      enqueue(lane, tasks.subspan(first, max_batch_));
      lane.stream.synchronize();
      lane.early.resize(first + max_batch_);
      decode(lane, max_batch_, std::span(lane.early).subspan(first));
    }
    enqueue(lane, tasks.subspan(first));
    lane.enqueued = static_cast<uint32_t>(tasks.size() - first);
  }

  void finish(uint32_t slot, std::span<Level1Outcome> outcomes) override {
    Lane& lane = lane_of(slot);
    if (!lane.busy) throw std::logic_error(fmt::format("CUDA level-1 searcher: no batch in flight in slot {}", slot));
    lane.busy = false;
    lane.stream.synchronize();
    if (outcomes.size() != lane.early.size() + lane.enqueued)
      throw std::invalid_argument("finish: one outcome per task");
    std::move(lane.early.begin(), lane.early.end(), outcomes.begin());
    decode(lane, lane.enqueued, outcomes.subspan(lane.early.size()));
  }

  std::string describe() const override {
    return fmt::format("cuda device {}, up to {} level-{} searches per launch, {} launches in flight", device_,
                       max_batch_, level_, kSlots);
  }

private:
  Lane& lane_of(uint32_t slot) {
    if (slot >= kSlots) throw std::logic_error(fmt::format("CUDA level-1 searcher: no slot {}", slot));
    return *lanes_[slot];
  }

  // Stages the tasks in the lane's pinned buffers and enqueues copies in, the kernel and copies out.
  void enqueue(Lane& lane, std::span<const Level1Task> tasks) {
    if (tasks.empty()) return;
    const uint32_t state_size = game_.state_size();
    const auto count = static_cast<uint32_t>(tasks.size());
    auto* first_streams = reinterpret_cast<uint64_t*>(lane.streams_host.data());
    auto* ids = reinterpret_cast<uint64_t*>(lane.ids_host.data());
    // Restarts all start at one state: upload it once and copy it on the device (an upload per search would
    // take more of the bus than the searches' results).
    const bool one_start =
        std::all_of(tasks.begin(), tasks.end(), [&](const Level1Task& t) { return t.start == tasks.front().start; });
    split_batch(host_threads_, count, kSearchesPerCopyThread, [&](unsigned, size_t i) {
      if (!one_start || i == 0) std::memcpy(lane.states_host.data() + i * state_size, tasks[i].start, state_size);
      first_streams[i] = tasks[i].first_stream;
      if (level_ == 2) ids[i] = tasks[i].id;
    });
    const uint64_t sequence_bytes = uint64_t{count} * max_moves_ * sizeof(uint32_t);
    lane.stream.copy_to_device(lane.states_device, lane.states_host.data(),
                               uint64_t{one_start ? 1 : count} * state_size);
    if (one_start) lane.stream.replicate_first(lane.states_device, state_size, count);
    lane.stream.copy_to_device(lane.streams_device, first_streams, uint64_t{count} * sizeof(uint64_t));
    const auto launch = [&](char* error, uint32_t size) {
      // deadline_ exists exactly when the table's run_stoppable does.
      if (level_ == 1) {
        auto* results = static_cast<gsdk_level1_result*>(lane.results_device);
        return deadline_ ? table_.run_stoppable(game_.handle(), seed_, lane.states_device, lane.streams_device, count,
                                                device_, lane.stream.handle(), results, lane.moves_device,
                                                deadline_->stop(), error, size)
                         : table_.run(game_.handle(), seed_, lane.states_device, lane.streams_device, count, device_,
                                      lane.stream.handle(), results, lane.moves_device, error, size);
      } else {
        lane.stream.copy_to_device(lane.ids_device, ids, uint64_t{count} * sizeof(uint64_t));
        const auto& level2 = *game_.tables().cuda_level2_searches;
        auto* results = static_cast<gsdk_level2_result*>(lane.results_device);
        return deadline_ ? level2.run_stoppable(game_.handle(), seed_, lane.states_device, lane.streams_device,
                                                lane.ids_device, count, device_, lane.stream.handle(),
                                                lane.scratch_device, lane.scratch_size, results, lane.moves_device,
                                                lane.record_moves_device, deadline_->stop(), error, size)
                         : level2.run(game_.handle(), seed_, lane.states_device, lane.streams_device, lane.ids_device,
                                      count, device_, lane.stream.handle(), lane.scratch_device, lane.scratch_size,
                                      results, lane.moves_device, lane.record_moves_device, error, size);
      }
    };
    call_plugin(launch, [&] {
      return fmt::format("{} CUDA level-{} searches ({} of them) on device {}", game_.game().name, level_, count,
                         device_);
    });
    const uint64_t result_bytes = level_ == 1 ? sizeof(gsdk_level1_result) : sizeof(gsdk_level2_result);
    lane.stream.copy_to_host(lane.results_host.data(), lane.results_device, count * result_bytes);
    lane.stream.copy_to_host(lane.moves_host.data(), lane.moves_device, sequence_bytes);
    if (level_ == 2) lane.stream.copy_to_host(lane.record_moves_host.data(), lane.record_moves_device, sequence_bytes);
  }

  // The outcomes of the lane's last `count` searches, once its stream has been waited for.
  void decode(const Lane& lane, uint32_t count, std::span<Level1Outcome> outcomes) const {
    const auto* moves = reinterpret_cast<const uint32_t*>(lane.moves_host.data());
    if (level_ == 1) {
      const auto* results = reinterpret_cast<const gsdk_level1_result*>(lane.results_host.data());
      split_batch(host_threads_, count, kSearchesPerCopyThread, [&](unsigned, size_t i) {
        copy_device_sequence(game_, "level-1", i, results[i].move_count, moves, max_moves_, outcomes[i].moves);
        outcomes[i].score = results[i].score;
        outcomes[i].playouts = results[i].playouts;
      });
      return;
    }
    const auto* results = reinterpret_cast<const gsdk_level2_result*>(lane.results_host.data());
    const auto* record_moves = reinterpret_cast<const uint32_t*>(lane.record_moves_host.data());
    split_batch(host_threads_, count, kSearchesPerCopyThread, [&](unsigned, size_t i) {
      copy_device_sequence(game_, "level-2", i, results[i].move_count, moves, max_moves_, outcomes[i].moves);
      copy_device_sequence(game_, "level-2", i, results[i].record_move_count, record_moves, max_moves_,
                           outcomes[i].record_moves);
      outcomes[i].score = results[i].score;
      outcomes[i].playouts = results[i].playouts;
      outcomes[i].level1_searches = results[i].level1_searches;
      outcomes[i].level1_steps = results[i].level1_steps;
    });
  }

  const GameInstance& game_;
  const gsdk_cuda_level1_searches& table_;
  uint64_t seed_;
  int device_;
  uint32_t level_;
  uint32_t max_moves_;
  uint32_t max_batch_;
  unsigned host_threads_;
  std::unique_ptr<Lane> lanes_[kSlots];
  std::unique_ptr<SearchDeadline> deadline_; // when the plugin can stop this level's searches
};

} // namespace

std::unique_ptr<Level1Searcher> make_cuda_level1_searcher(const GameInstance& game, uint64_t seed, int device,
                                                          uint32_t max_batch, unsigned host_threads, uint32_t level) {
  if (!game.tables().cuda_level1_searches)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA level-1 search table "
                                            "(gsdk.cuda_level1_searches.v1); NMCS on cuda needs it",
                                            game.game().name, game.tables().path));
  if (level != 1 && level != 2)
    throw std::invalid_argument(fmt::format("NMCS on cuda runs whole searches of level 1 or 2, not {}", level));
  if (level == 2 && !game.tables().cuda_level2_searches)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA level-2 search table "
                                            "(gsdk.cuda_level2_searches.v1); device_level = 2 needs it",
                                            game.game().name, game.tables().path));
  return std::make_unique<CudaLevel1Searcher>(game, seed, device, max_batch, host_threads, level);
}

} // namespace gsdk::core
