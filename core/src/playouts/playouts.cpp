// playouts.cpp - the flat Monte Carlo scheduler: CPU workers and CUDA streams pulling work items.
#include "gsdk/core/playouts/playouts.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/progress_monitor.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"
#include "gsdk/playout_summary.hpp"
#include "gsdk/rng/philox.hpp"
#include "playouts/playout_calls.hpp"
#include "runtime/work_queue.hpp"

namespace gsdk::core {

namespace {

constexpr uint32_t kMessageSize = 2048;
// A CUDA call never covers more than this many playouts, so long runs still report progress.
constexpr uint64_t kMaxCudaCall = uint64_t{1} << 33;

// Items of item_size playouts each (the last one shorter).
struct SharedWork : WorkQueue {
  uint64_t item_size = 1;
  uint64_t playouts = 0;

  // Claims up to `count` items; returns their playout range, empty when none are left.
  std::pair<uint64_t, uint64_t> claim_playouts(uint64_t count) {
    const auto [first, end] = claim(count);
    return {first * item_size, std::min(end * item_size, playouts)};
  }
};

gsdk_playout_request make_request(const PlayoutJob& job, const StateBlob* start, uint64_t first, uint64_t count) {
  return playout_request(job.seed, first, count, start ? start->data() : nullptr, job.simd_level);
}

void run_cpu_range(const GameInstance& game, const PlayoutJob& job, const StateBlob& start, bool explicit_start,
                   bool batch, uint64_t first, uint64_t end, PlayoutResult& part) {
  if (batch) {
    gsdk_playout_summary s = part.bind();
    const gsdk_playout_request r = make_request(job, explicit_start ? &start : nullptr, first, end - first);
    char error[kMessageSize] = {};
    const int32_t status = game.tables().cpu_playouts->run(game.handle(), &r, &s, error, kMessageSize);
    if (status != GSDK_OK)
      throw std::runtime_error(fmt::format("{} CPU playouts [{}, {}) failed: {}", game.game().name, first, end, error));
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
    uint32_t pick = n - 1;
    if (chance) {
      double u = random.uniform();
      for (uint32_t k = 0; k < n; ++k) {
        if (u < probabilities[k]) {
          pick = k;
          break;
        }
        u -= probabilities[k];
      }
    } else {
      pick = random.below(n);
    }
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

  SharedWork work;
  // Slow games (thousands of playouts per millisecond, not millions) still need items enough for every
  // CPU worker: about eight each, never fewer playouts per item than keeps claiming cheap.
  const uint64_t balanced = job.cpu_threads == 0 ? job.playouts : job.playouts / (8ull * job.cpu_threads);
  work.item_size = std::max<uint64_t>(1, std::min(job.cpu_item_playouts, std::max<uint64_t>(4096, balanced)));
  work.total = (job.playouts + work.item_size - 1) / work.item_size;
  work.playouts = job.playouts;

  const unsigned streams = std::max(1u, job.streams_per_device);
  const unsigned gpu_workers = static_cast<unsigned>(job.cuda_devices.size()) * streams;
  const unsigned workers = job.cpu_threads + gpu_workers;
  // Alone, the GPUs split the job between them; beside CPU workers they take smaller runs so the
  // CPUs' share stays balanced.
  uint64_t gpu_items = 1;
  if (gpu_workers > 0) {
    const uint64_t share = job.cpu_threads == 0 ? gpu_workers : 8ull * gpu_workers;
    gpu_items = std::max<uint64_t>(1, (work.total + share - 1) / share);
    gpu_items = std::min(gpu_items, std::max<uint64_t>(1, kMaxCudaCall / work.item_size));
  }

  // Arenas are made before any worker starts so an allocation failure is reported up front.
  std::map<int, std::unique_ptr<DeviceArena>> arenas;
  for (int device : job.cuda_devices) {
    if (arenas.count(device)) continue;
    const uint64_t scratch = tables.cuda_playouts->scratch_bytes(game.handle(), gpu_items * work.item_size);
    arenas[device] = std::make_unique<DeviceArena>(device, (scratch + 4096) * streams);
  }

  std::vector<PlayoutResult> parts(workers, PlayoutResult(score_min, bins));
  std::vector<uint64_t> worker_playouts(workers, 0);
  PlayoutTimings timings;
  const auto began = std::chrono::steady_clock::now();

  ProgressMonitor monitor(progress ? std::function<void()>([&] { progress(work.done.load(), work.playouts); })
                                   : std::function<void()>());

  try {
    run_workers(workers, [&](unsigned w) {
      try {
        if (w < job.cpu_threads) {
          for (auto [first, end] = work.claim_playouts(1); first < end; std::tie(first, end) = work.claim_playouts(1)) {
            run_cpu_range(game, job, start, job.start_state.has_value(), batch, first, end, parts[w]);
            worker_playouts[w] += end - first;
            work.done += end - first;
          }
          return;
        }
        const unsigned g = w - job.cpu_threads;
        const int device = job.cuda_devices[g / streams];
        CudaStream stream(device);
        const uint64_t scratch_size = tables.cuda_playouts->scratch_bytes(game.handle(), gpu_items * work.item_size);
        void* scratch = arenas.at(device)->allocate(scratch_size);
        for (auto [first, end] = work.claim_playouts(gpu_items); first < end;
             std::tie(first, end) = work.claim_playouts(gpu_items)) {
          gsdk_playout_summary s = parts[w].bind();
          const gsdk_playout_request r = make_request(job, job.start_state ? &start : nullptr, first, end - first);
          char error[kMessageSize] = {};
          const int32_t status = tables.cuda_playouts->run(game.handle(), &r, device, stream.handle(), scratch,
                                                           scratch_size, &s, error, kMessageSize);
          if (status != GSDK_OK)
            throw std::runtime_error(fmt::format("{} CUDA playouts [{}, {}) on device {} failed: {}", game.game().name,
                                                 first, end, device, error));
          parts[w].absorb(s);
          worker_playouts[w] += end - first;
          work.done += end - first;
        }
      } catch (const std::exception& e) {
        work.fail(e.what());
      }
    });
  } catch (const std::exception& e) {
    work.fail(e.what());
  }
  monitor.stop();

  PlayoutOutcome outcome{PlayoutResult(score_min, bins), {}, batch ? "batch" : "generic", work.error};
  for (unsigned w = 0; w < workers; ++w) {
    outcome.result.merge(parts[w]);
    (w < job.cpu_threads ? timings.cpu_playouts : timings.cuda_playouts) += worker_playouts[w];
  }
  timings.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  timings.device_milliseconds = outcome.result.device_milliseconds;
  outcome.timings = timings;
  if (outcome.error.empty() && outcome.result.playouts != job.playouts)
    outcome.error =
        fmt::format("internal error: {} of {} playouts were counted", outcome.result.playouts, job.playouts);
  return outcome;
}

} // namespace gsdk::core
