// playouts.cpp - the flat Monte Carlo scheduler: CPU workers and CUDA streams pulling work items.
#include "gsdk/core/playouts/playouts.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/playouts/chance_outcome.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/core/runtime/progress_monitor.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"
#include "gsdk/playout_summary.hpp"
#include "gsdk/rng/philox.hpp"
#include "playouts/playout_calls.hpp"
#include "runtime/cuda_calls.hpp"
#include "runtime/work_queue.hpp"

namespace gsdk::core {

namespace {

// A CUDA call never covers more than this many playouts, so long runs still report progress.
constexpr uint64_t kMaxCudaCall = uint64_t{1} << 33;

// The playouts a job still has to run, cut into items of item_size playouts (each range's last one
// shorter); item k of a job that resumes nothing is [k * item_size, (k + 1) * item_size).
class PlayoutItems {
public:
  PlayoutItems(const PlayoutRanges& remaining, uint64_t item_size) : item_size_(item_size) {
    for (const auto& [first, end] : remaining) {
      segments_.push_back({count_, first, end});
      count_ += (end - first + item_size - 1) / item_size;
    }
  }

  uint64_t count() const { return count_; }

  std::pair<uint64_t, uint64_t> range(uint64_t item) const {
    const auto after = std::upper_bound(segments_.begin(), segments_.end(), item,
                                        [](uint64_t k, const Segment& s) { return k < s.first_item; });
    const Segment& s = *std::prev(after);
    const uint64_t first = s.first + (item - s.first_item) * item_size_;
    return {first, std::min(first + item_size_, s.end)};
  }

private:
  struct Segment {
    uint64_t first_item, first, end;
  };
  uint64_t item_size_;
  uint64_t count_ = 0;
  std::vector<Segment> segments_;
};

// What the job's workers have completed, merged as each item ends, so a snapshot can be taken at any time.
class CompletedPlayouts {
public:
  explicit CompletedPlayouts(PlayoutProgress start) : progress_(std::move(start)) {}

  void add(uint64_t first, uint64_t end, const PlayoutResult& part) {
    std::lock_guard lock(mutex_);
    progress_.result.merge(part);
    add_playout_range(progress_.completed, first, end);
  }

  PlayoutProgress snapshot() const {
    std::lock_guard lock(mutex_);
    return progress_;
  }

private:
  mutable std::mutex mutex_;
  PlayoutProgress progress_;
};

// [0, playouts) less what `resume` completed, after checking that it belongs to a job of this size.
PlayoutRanges remaining_playouts(const PlayoutProgress* resume, uint64_t playouts, int64_t score_min, uint32_t bins) {
  if (!resume) return playouts == 0 ? PlayoutRanges{} : PlayoutRanges{{0, playouts}};
  if (resume->result.score_min != score_min || resume->result.histogram.size() != bins)
    throw std::invalid_argument(fmt::format("the resumed result's histogram ({} bins from {}) is not the game's ({} "
                                            "bins from {})",
                                            resume->result.histogram.size(), resume->result.score_min, bins,
                                            score_min));
  PlayoutRanges remaining;
  uint64_t next = 0, counted = 0;
  for (const auto& [first, end] : resume->completed) {
    if (first < next || first >= end || end > playouts)
      throw std::invalid_argument(fmt::format("the resumed playouts [{}, {}) overlap others, are empty or lie "
                                              "beyond the job's {} playouts",
                                              first, end, playouts));
    if (first > next) remaining.push_back({next, first});
    counted += end - first;
    next = end;
  }
  if (next < playouts) remaining.push_back({next, playouts});
  if (counted != resume->result.playouts)
    throw std::invalid_argument(fmt::format("the resumed ranges hold {} playouts but their result counts {}", counted,
                                            resume->result.playouts));
  return remaining;
}

// The playouts of `remaining` that are also in the part's `ranges` (both sorted and disjoint).
PlayoutRanges part_of(const PlayoutRanges& remaining, const PlayoutRanges& ranges) {
  PlayoutRanges out;
  for (const auto& [first, end] : ranges)
    for (const auto& piece : intersect(remaining, first, end)) out.push_back(piece);
  return out;
}

uint64_t count_playouts(const PlayoutRanges& ranges) {
  uint64_t n = 0;
  for (const auto& [first, end] : ranges) n += end - first;
  return n;
}

gsdk_playout_request make_request(const PlayoutJob& job, const StateBlob* start, uint64_t first, uint64_t count) {
  return playout_request(job.seed, first, count, start ? start->data() : nullptr, job.simd_level);
}

void run_cpu_range(const GameInstance& game, const PlayoutJob& job, const StateBlob& start, bool explicit_start,
                   bool batch, uint64_t first, uint64_t end, PlayoutResult& part) {
  if (batch) {
    gsdk_playout_summary s = part.bind();
    const gsdk_playout_request r = make_request(job, explicit_start ? &start : nullptr, first, end - first);
    call_plugin(
        [&](char* error, uint32_t size) { return game.tables().cpu_playouts->run(game.handle(), &r, &s, error, size); },
        [&] { return fmt::format("{} CPU playouts [{}, {})", game.game().name, first, end); });
    part.absorb(s);
    return;
  }
  gsdk_playout_summary s = part.bind();
  for (uint64_t i = first; i < end; ++i)
    gsdk::record_playout(s, generic_playout(game, job.seed, i, start), i, part.score_min);
  part.absorb(s);
}

} // namespace

int64_t generic_playout(const GameInstance& game, uint64_t seed, uint64_t playout, const StateBlob& start,
                        std::vector<uint32_t>* moves) {
  rng::PhiloxStream random(seed, playout);
  StateBlob state = start;
  std::vector<uint32_t> legal(game.max_moves());
  std::vector<double> probabilities(game.max_moves());
  for (;;) {
    const int32_t player = game.current_player(state);
    if (player == GSDK_PLAYER_TERMINAL) return game.score(state);
    const bool chance = player == GSDK_PLAYER_CHANCE;
    const uint32_t n = game.legal_moves(state, legal.data(), chance ? probabilities.data() : nullptr);
    game.require_moves_in_live_state(state, n);
    const uint32_t pick = chance ? chance_outcome(random.uniform(), probabilities.data(), n) : random.below(n);
    if (moves) moves->push_back(legal[pick]);
    game.apply_move(state, legal[pick]);
  }
}

PlayoutOutcome run_playouts(const GameInstance& game, const PlayoutJob& job, const ProgressFn& progress) {
  const auto& tables = game.tables();
  const bool batch = !job.force_generic && tables.cpu_playouts != nullptr;
  const bool use_cuda = !job.cuda_devices.empty();
  if (use_cuda && job.force_generic)
    throw std::invalid_argument("the generic per-state engine runs on CPU threads only");
  if (use_cuda && !tables.cuda_playouts)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA playout table; run it on the CPU",
                                            game.game().name, tables.path));
  if (job.cpu_threads == 0 && !use_cuda) throw std::invalid_argument("no CPU threads and no CUDA devices selected");
  if (job.start_state && job.start_state->size() != game.state_size())
    throw std::invalid_argument(fmt::format("start state is {} bytes, game '{}' states are {}", job.start_state->size(),
                                            game.game().name, game.state_size()));

  const StateBlob start = job.start_state ? *job.start_state : game.initial_state();
  const int64_t score_min = game.score_range().first;
  const uint32_t bins = game.histogram_bins();

  // Slow games (thousands of playouts per millisecond, not millions) still need items enough for every
  // CPU worker: about eight each, never fewer playouts per item than keeps claiming cheap.
  const uint64_t balanced = job.cpu_threads == 0 ? job.playouts : job.playouts / (8ull * job.cpu_threads);
  const uint64_t item_size = std::max<uint64_t>(1, std::min(job.cpu_item_playouts, std::max<uint64_t>(4096, balanced)));
  PlayoutRanges remaining = remaining_playouts(job.resume, job.playouts, score_min, bins);
  if (job.part) remaining = part_of(remaining, job.part->ranges(job.playouts));
  const uint64_t planned = (job.resume ? job.resume->result.playouts : 0) + count_playouts(remaining);
  const PlayoutItems items(remaining, item_size);
  WorkQueue work;
  work.total = items.count();
  work.stop_request = job.stop;
  CompletedPlayouts completed(job.resume ? *job.resume : PlayoutProgress{{}, PlayoutResult(score_min, bins)});
  work.done = job.resume ? job.resume->result.playouts : 0;

  const unsigned streams = std::max(1u, job.streams_per_device);
  const unsigned gpu_workers = static_cast<unsigned>(job.cuda_devices.size()) * streams;
  const unsigned workers = job.cpu_threads + gpu_workers;
  // Alone, the GPUs split the job between them; beside CPU workers they take smaller runs so the
  // CPUs' share stays balanced.
  uint64_t gpu_items = 1;
  if (gpu_workers > 0) {
    const uint64_t share = job.cpu_threads == 0 ? gpu_workers : 8ull * gpu_workers;
    gpu_items = std::max<uint64_t>(1, (work.total + share - 1) / share);
    gpu_items = std::min(gpu_items, std::max<uint64_t>(1, kMaxCudaCall / item_size));
  }

  // Arenas are made before any worker starts so an allocation failure is reported up front.
  std::map<int, std::unique_ptr<DeviceArena>> arenas;
  for (int device : job.cuda_devices) {
    if (arenas.count(device)) continue;
    const uint64_t scratch = tables.cuda_playouts->scratch_bytes(game.handle(), gpu_items * item_size);
    arenas[device] = std::make_unique<DeviceArena>(device, (scratch + 4096) * streams);
  }

  std::vector<uint64_t> worker_playouts(workers, 0);
  PlayoutTimings timings;
  const auto began = std::chrono::steady_clock::now();

  auto last_snapshot = began;
  const auto report = [&] {
    if (progress) progress(work.done.load(), planned);
    if (!job.on_snapshot) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_snapshot).count() < job.snapshot_seconds) return;
    last_snapshot = now;
    try {
      job.on_snapshot(completed.snapshot());
    } catch (const std::exception& e) {
      work.fail(e.what());
    }
  };
  ProgressMonitor monitor(progress || job.on_snapshot ? std::function<void()>(report) : std::function<void()>());

  try {
    run_workers(workers, [&](unsigned w) {
      try {
        PlayoutResult part(score_min, bins);
        if (w < job.cpu_threads) {
          for (auto [item, end_item] = work.claim(1); item < end_item; std::tie(item, end_item) = work.claim(1)) {
            const auto [first, end] = items.range(item);
            part = PlayoutResult(score_min, bins);
            run_cpu_range(game, job, start, job.start_state.has_value(), batch, first, end, part);
            completed.add(first, end, part);
            worker_playouts[w] += end - first;
            work.done += end - first;
          }
          return;
        }
        const unsigned g = w - job.cpu_threads;
        const int device = job.cuda_devices[g / streams];
        CudaStream stream(device);
        const uint64_t scratch_size = tables.cuda_playouts->scratch_bytes(game.handle(), gpu_items * item_size);
        void* scratch = arenas.at(device)->allocate(scratch_size);
        const auto run_call = [&](uint64_t first, uint64_t end) {
          part = PlayoutResult(score_min, bins);
          gsdk_playout_summary s = part.bind();
          const gsdk_playout_request r = make_request(job, job.start_state ? &start : nullptr, first, end - first);
          call_plugin(
              [&](char* error, uint32_t size) {
                return tables.cuda_playouts->run(game.handle(), &r, device, stream.handle(), scratch, scratch_size, &s,
                                                 error, size);
              },
              [&] {
                return fmt::format("{} CUDA playouts [{}, {}) on device {}", game.game().name, first, end, device);
              });
          part.absorb(s);
          completed.add(first, end, part);
          worker_playouts[w] += end - first;
          work.done += end - first;
        };
        // Runs of items sized from the last run's time (runtime/cuda_calls.hpp), at most gpu_items.
        run_cuda_calls(work, gpu_items, [&](uint64_t item, uint64_t end_item) {
          // Items in a run are consecutive playouts except where resumed ranges cut them.
          auto [first, end] = items.range(item);
          for (uint64_t k = item + 1; k < end_item; ++k) {
            const auto [next_first, next_end] = items.range(k);
            if (next_first != end) {
              run_call(first, end);
              first = next_first;
            }
            end = next_end;
          }
          run_call(first, end);
        });
      } catch (const std::exception& e) {
        work.fail(e.what());
      }
    });
  } catch (const std::exception& e) {
    work.fail(e.what());
  }
  monitor.stop();

  PlayoutProgress done = completed.snapshot();
  PlayoutOutcome outcome{std::move(done.result), std::move(done.completed), {}, batch ? "batch" : "generic", work.error,
                         work.stopped.load()};
  for (unsigned w = 0; w < workers; ++w)
    (w < job.cpu_threads ? timings.cpu_playouts : timings.cuda_playouts) += worker_playouts[w];
  timings.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  timings.device_milliseconds =
      outcome.result.device_milliseconds - (job.resume ? job.resume->result.device_milliseconds : 0);
  outcome.timings = timings;
  if (outcome.error.empty() && !outcome.stopped && outcome.result.playouts != planned)
    outcome.error = fmt::format("internal error: {} of {} playouts were counted", outcome.result.playouts, planned);
  return outcome;
}

void add_playout_range(PlayoutRanges& ranges, uint64_t first, uint64_t end) {
  if (first >= end) return;
  auto at = std::lower_bound(ranges.begin(), ranges.end(), std::pair{first, end});
  if (at != ranges.begin() && std::prev(at)->second == first) {
    --at;
    at->second = end;
  } else {
    at = ranges.insert(at, {first, end});
  }
  const auto next = std::next(at);
  if (next != ranges.end() && next->first == at->second) {
    at->second = next->second;
    ranges.erase(next);
  }
}

} // namespace gsdk::core
