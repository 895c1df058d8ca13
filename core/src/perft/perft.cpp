// perft.cpp - the perft driver: the root is expanded on the host into subtrees, which CPU workers
// (one subtree at a time, in calls cut short enough to honour a stop: subtree_counter.hpp) and CUDA streams
// (batches of many subtrees) pull from one queue; counts are kept per subtree and summed per root move, in
// subtree order, at the end.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/perft/cuda_perft.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/progress_monitor.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"
#include "perft/hashed_counter.hpp"
#include "perft/host_table.hpp"
#include "perft/root_expansion.hpp"
#include "perft/subtree_counter.hpp"
#include "runtime/cuda_calls.hpp"
#include "runtime/work_queue.hpp"

namespace gsdk::core {

namespace {

// Enough subtrees that a slow one at the end leaves the other CPU workers little idle time.
constexpr uint64_t kSubtreesPerCpuWorker = 32;
// The GPU engine widens its frontier itself, level by level, so the host only needs a few subtrees
// per call (as few as one); expanding further on the host (per-state calls through the ABI, about a
// microsecond each) would cost more than a GPU level. Each stream should still get several calls.
constexpr uint64_t kGpuCallsPerStream = 4;
// Beside CPU workers the GPUs take smaller batches, so the queue ends evenly.
constexpr uint64_t kGpuCallsPerStreamWithCpu = 16;
// A hashed count cuts the root finer for its GPUs: subtrees that transpose into each other meet in the device's table
// across calls anyway, and small subtrees keep each call short (a stop request waits for the calls under way) and
// the streams evenly loaded. Measured in docs/perf/chess_perft.md ("Hashed perft").
constexpr uint64_t kHashedSubtreesPerStream = 256;
// Of a device's free memory, the share its streams' arenas take together, but no more than
// kMaxArenaBytesPerStream each: allocating (and freeing) tens of GiB costs about 0.15 s per call on an
// H100, while 4 GiB already holds a level of 60 million chess children and a bigger frontier is
// split into parts at the price of one stream sync each.
constexpr double kArenaShareOfFreeMemory = 0.8;
constexpr uint64_t kMaxArenaBytesPerStream = uint64_t{4} << 30;
// Shares are whole granules, so that the next job of the process (an MPI rank's next chunk) asks for the same size
// and takes its arena back from the memory the last one kept (cuda_memory_shelf.hpp): free memory moves by a few
// megabytes between jobs.
constexpr uint64_t kArenaGranule = uint64_t{64} << 20;

uint64_t whole_granules(uint64_t bytes) {
  return bytes < kArenaGranule ? bytes : bytes / kArenaGranule * kArenaGranule;
}

// The ids of `ids` (sorted) inside the part's `ranges` (sorted, disjoint).
std::vector<uint64_t> in_part(const std::vector<uint64_t>& ids,
                              const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  std::vector<uint64_t> out;
  auto range = ranges.begin();
  for (uint64_t id : ids) {
    while (range != ranges.end() && range->second <= id) ++range;
    if (range == ranges.end()) break;
    if (id >= range->first) out.push_back(id);
  }
  return out;
}

// The ids of the subtrees `resume` has not counted, after filling `leaves` with those it has and checking that
// it belongs to this expansion.
std::vector<uint64_t> subtrees_to_count(const PerftProgress* resume, uint64_t subtrees, std::vector<uint128>& leaves) {
  std::vector<unsigned char> counted(subtrees, 0);
  if (resume) {
    if (resume->subtrees != subtrees)
      throw std::invalid_argument(
          fmt::format("the resumed count cut the root into {} subtrees, this one into {}", resume->subtrees, subtrees));
    for (const auto& [id, count] : resume->counted) {
      if (id >= subtrees || counted[id])
        throw std::invalid_argument(
            fmt::format("the resumed count lists subtree {} twice or beyond the {} subtrees", id, subtrees));
      counted[id] = 1;
      leaves[id] = count;
    }
  }
  std::vector<uint64_t> uncounted;
  for (uint64_t id = 0; id < subtrees; ++id)
    if (!counted[id]) uncounted.push_back(id);
  return uncounted;
}

// One engine per (device, stream). Arenas share each device's free memory, measured before any of
// them allocates; a device listed twice gets twice the streams.
// With `table_nodes` > 0 (a hashed job), each device also gets a table, shared by its streams' engines.
std::vector<std::unique_ptr<CudaPerftEngine>> start_engines(const GameInstance& game, const PerftJob& job,
                                                            unsigned streams, double table_nodes,
                                                            std::vector<std::shared_ptr<CudaPerftTable>>& tables) {
  std::map<int, uint64_t> streams_on;
  for (int device : job.cuda_devices) streams_on[device] += streams;
  std::map<int, uint64_t> arena_bytes;
  for (const auto& [device, count] : streams_on)
    arena_bytes[device] =
        job.arena_bytes_per_stream != 0
            ? job.arena_bytes_per_stream
            : std::min(
                  kMaxArenaBytesPerStream,
                  whole_granules(static_cast<uint64_t>(cuda_free_memory(device) * kArenaShareOfFreeMemory) / count));
  std::map<int, std::shared_ptr<CudaPerftTable>> table_of;
  if (table_nodes > 0)
    for (const auto& [device, count] : streams_on) {
      const uint64_t bytes = job.hashing.device_table_bytes != 0
                                 ? job.hashing.device_table_bytes
                                 : default_cuda_table_bytes(device, table_nodes, arena_bytes[device] * count);
      tables.push_back(table_of[device] = std::make_shared<CudaPerftTable>(device, bytes));
    }
  std::vector<std::unique_ptr<CudaPerftEngine>> engines;
  for (int device : job.cuda_devices)
    for (unsigned s = 0; s < streams; ++s) {
      engines.push_back(std::make_unique<CudaPerftEngine>(game, device, arena_bytes[device], table_of[device]));
      // CUDA loads a module's kernels on their first launch: a shallow count of the root launches them all
      // (every BFS kernel and the plugin's leaf kernel) before the clock of the real count starts.
      engines.back()->count({job.root}, std::min(job.depth, game.tables().cuda_perft->leaf_plies + 1));
    }
  return engines;
}

std::string engine_name(bool cpu, bool plugin_table, bool cuda) {
  std::string name = cpu ? (plugin_table ? "plugin-cpu" : "generic") : "";
  if (cuda) name += name.empty() ? "cuda-bfs" : "+cuda-bfs";
  return name;
}

void check_job(const GameInstance& game, const PerftJob& job) {
  const bool use_cuda = !job.cuda_devices.empty();
  if (job.root.size() != game.state_size())
    throw std::invalid_argument(fmt::format("root state is {} bytes, game '{}' states are {}", job.root.size(),
                                            game.game().name, game.state_size()));
  if (use_cuda && job.force_generic)
    throw std::invalid_argument("the generic per-state perft runs on CPU threads only");
  if (use_cuda && !game.tables().cuda_perft)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA perft table ({}); count on the CPU",
                                            game.game().name, game.tables().path, GSDK_TABLE_CUDA_PERFT));
  if (job.cpu_threads == 0 && !use_cuda) throw std::invalid_argument("no CPU threads and no CUDA devices selected");
}

// Depth 0 and 1 need no workers: 1 leaf, or one per root move.
PerftOutcome count_on_host(const GameInstance& game, const PerftJob& job) {
  PerftOutcome outcome;
  outcome.engine = "generic";
  if (job.depth == 0) {
    outcome.leaves = outcome.cpu_leaves = 1;
    return outcome;
  }
  std::vector<uint32_t> moves(game.max_moves());
  const uint32_t n = game.checked_legal_moves(job.root, moves);
  outcome.leaves = outcome.cpu_leaves = n;
  if (job.divide)
    for (uint32_t k = 0; k < n; ++k) outcome.divide.push_back({moves[k], game.move_to_string(job.root, moves[k]), 1});
  return outcome;
}

// Below this many plies to go, a CPU worker counts whole rather than looking up (hashed_counter.hpp): measured in
// docs/perf/chess_perft.md, "Hashed perft".
constexpr uint32_t kCpuHashedDepth = 2;

// About how many positions `subtrees` subtrees of `depth` plies have with at least `hashed_depth` plies to go, at
// `branching` moves a position (transpositions not taken off: an upper bound to size tables by).
double nodes_to_hash(uint64_t subtrees, double branching, uint32_t depth, uint32_t hashed_depth) {
  double nodes = 0, level = static_cast<double>(subtrees);
  for (uint32_t d = depth; d >= hashed_depth && d > 0 && level < 1e30; --d, level *= branching) nodes += level;
  return nodes;
}

// The mean number of moves of the positions along a few random games of `depth` plies from `root`, at least 2: the
// branching tables are sized by. The root's own move count misleads (4 in Othello, whose games branch about 10
// ways; measured: a table sized by 4 held 2% of startpos perft 16's look-ups, 36 s, against ...). Seeded, so a job
// sizes its tables alike every time.
double estimated_branching(const GameInstance& game, const StateBlob& root, uint32_t depth) {
  constexpr int kGames = 32;
  std::mt19937_64 random(depth);
  std::vector<uint32_t> moves(game.max_moves());
  uint64_t positions = 0, total = 0;
  for (int g = 0; g < kGames; ++g) {
    StateBlob s = root;
    for (uint32_t ply = 0; ply < depth; ++ply) {
      const uint32_t n = game.checked_legal_moves(s, moves);
      if (n == 0) break;
      ++positions;
      total += n;
      game.apply_move(s, moves[random() % n]);
    }
  }
  return std::max(2.0, positions == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(positions));
}

void add(TableCounters& sum, const TableCounters& part) {
  sum.probes += part.probes;
  sum.hits += part.hits;
  sum.stores += part.stores;
  sum.fills += part.fills;
}

void add(PerftTableStats& sum, const PerftTableStats& part) {
  sum.bytes += part.bytes;
  sum.slots += part.slots;
  sum.filled += part.filled;
  sum.probes += part.probes;
  sum.hits += part.hits;
  sum.stores += part.stores;
}

PerftTableStats table_stats(const HostTable& table, const TableCounters& counters) {
  return {table.bytes(),   table.slots(), std::min(counters.fills, table.slots()),
          counters.probes, counters.hits, counters.stores};
}

} // namespace

PerftOutcome run_perft(const GameInstance& game, const PerftJob& job, const PerftProgressFn& progress) {
  check_job(game, job);
  auto began = std::chrono::steady_clock::now();
  const auto seconds_since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  };
  if (job.depth <= 1) {
    // Nothing to share: a part counts nothing, and the count that merges the parts counts it all at once.
    if (job.part) return PerftOutcome{};
    PerftOutcome outcome = count_on_host(game, job);
    outcome.wall_seconds = seconds_since_start();
    return outcome;
  }

  PerftOutcome outcome;
  std::vector<uint32_t> root_moves(game.max_moves());
  root_moves.resize(game.checked_legal_moves(job.root, root_moves));
  // Tables are sized for the nodes a job of this branching would store (host_table.hpp).
  const double branching = job.hashing.enabled ? estimated_branching(game, job.root, job.depth) : 0.0;
  const unsigned streams = std::max(1u, job.streams_per_device);
  // Device start-up is timed apart from the count, as GPU perft programs report it (a tenth of a second
  // per process on an H100, most of a shallow count's time).
  std::vector<std::unique_ptr<CudaPerftEngine>> engines;
  std::vector<std::shared_ptr<CudaPerftTable>> device_tables;
  std::string startup_error;
  if (!job.cuda_devices.empty()) {
    try {
      const uint32_t device_hashed_depth = game.tables().cuda_perft->leaf_plies + 1;
      const double table_nodes =
          job.hashing.enabled ? nodes_to_hash(1, branching, job.depth, device_hashed_depth) : 0.0;
      engines = start_engines(game, job, streams, table_nodes, device_tables);
    } catch (const std::exception& e) {
      startup_error = e.what();
    }
    outcome.startup_seconds = seconds_since_start();
    began = std::chrono::steady_clock::now();
  }
  double warm_up_milliseconds = 0;
  for (const auto& engine : engines) warm_up_milliseconds += engine->device_milliseconds();

  const bool plugin_table = !job.force_generic && game.tables().cpu_perft != nullptr;
  const unsigned gpu_workers = static_cast<unsigned>(job.cuda_devices.size()) * streams;
  const unsigned workers = job.cpu_threads + gpu_workers;
  const uint64_t gpu_calls = job.cpu_threads == 0 ? kGpuCallsPerStream : kGpuCallsPerStreamWithCpu;
  const uint64_t gpu_subtrees = uint64_t{gpu_workers} * (job.hashing.enabled ? kHashedSubtreesPerStream : gpu_calls);
  const uint64_t target = std::max<uint64_t>(kSubtreesPerCpuWorker * job.cpu_threads, gpu_subtrees);

  // A resumed job cuts the root as the job it resumes did, so its subtree ids mean the same subtrees.
  if (job.resume && job.split_target && job.resume->split_target != job.split_target)
    throw std::invalid_argument(fmt::format("the resumed count cut the root for {} subtrees, this one asks for {}",
                                            job.resume->split_target, job.split_target));
  const bool hashed = job.hashing.enabled;
  if (job.resume && job.resume->distinct != hashed)
    throw std::invalid_argument(hashed ? "the resumed count was made without transposition tables (resume it with "
                                         "hashing off)"
                                       : "the resumed count was made with transposition tables (resume it with "
                                         "hashing on)");
  const uint64_t split_target = job.resume ? job.resume->split_target : job.split_target ? job.split_target : target;
  const RootExpansion subtrees = expand_root(game, job.root, root_moves, job.depth, split_target, hashed);
  const uint32_t depth = subtrees.depth;
  outcome.hash.enabled = hashed;
  if (hashed) {
    outcome.hash.paths = subtrees.paths;
    outcome.hash.subtrees = subtrees.size();
  }
  std::unique_ptr<HostTable> host_table;
  if (hashed && job.cpu_threads > 0 && depth >= kCpuHashedDepth) {
    try {
      host_table = std::make_unique<HostTable>(
          job.hashing.host_table_bytes != 0
              ? job.hashing.host_table_bytes
              : default_host_table_bytes(nodes_to_hash(subtrees.size(), branching, depth, kCpuHashedDepth)));
    } catch (const std::exception& e) {
      startup_error = e.what();
    }
  }

  // Each subtree's count is written by the one worker that claimed it, or comes from the resumed job.
  std::vector<uint128> leaves(subtrees.size(), 0);
  std::vector<uint64_t> uncounted = subtrees_to_count(job.resume, subtrees.size(), leaves);
  if (job.part) uncounted = in_part(uncounted, job.part->ranges(subtrees.size()));
  outcome.progress.split_target = split_target;
  outcome.progress.distinct = hashed;
  outcome.progress.subtrees = subtrees.size();
  if (job.resume) outcome.progress.counted = job.resume->counted;
  std::mutex progress_mutex; // guards outcome.progress while workers run

  WorkQueue queue; // one item per subtree still to count
  queue.total = uncounted.size();
  queue.stop_request = job.stop;
  queue.done = subtrees.size() - uncounted.size(); // progress counts the resumed subtrees too
  const uint64_t gpu_batch =
      gpu_workers == 0 ? 1
                       : std::max<uint64_t>(1, (queue.total + gpu_workers * gpu_calls - 1) / (gpu_workers * gpu_calls));

  if (!startup_error.empty()) queue.fail(startup_error);

  std::vector<uint128> worker_leaves(workers, 0);
  std::mutex counters_mutex; // guards table_counters
  TableCounters table_counters;
  std::vector<unsigned char> worker_counted(workers, 0);
  const auto record = [&](uint64_t subtree) {
    std::lock_guard lock(progress_mutex);
    outcome.progress.counted.emplace_back(subtree, leaves[subtree]);
  };

  auto last_snapshot = std::chrono::steady_clock::now();
  const auto report = [&] {
    if (progress) progress(queue.done.load(), subtrees.size());
    if (!job.on_snapshot) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_snapshot).count() < job.snapshot_seconds) return;
    last_snapshot = now;
    PerftProgress snapshot;
    {
      std::lock_guard lock(progress_mutex);
      snapshot = outcome.progress;
    }
    std::sort(snapshot.counted.begin(), snapshot.counted.end());
    try {
      job.on_snapshot(snapshot);
    } catch (const std::exception& e) {
      queue.fail(e.what());
    }
  };
  ProgressMonitor monitor(progress || job.on_snapshot ? std::function<void()>(report) : std::function<void()>());

  // Beside GPUs, CPU workers leave the last round of batches to them: a GPU counts a whole batch sooner
  // than a CPU thread counts one subtree, so a CPU holding the last subtree would be the tail.
  const uint64_t cpu_claims_end =
      engines.empty() ? queue.total : queue.total - std::min(queue.total, gpu_batch * gpu_workers);
  try {
    if (queue.error.empty())
      run_workers(workers, [&](unsigned w) {
        try {
          if (w < job.cpu_threads) {
            SubtreeCounter counter(game, plugin_table, job.stop, job.cpu_call_seconds);
            std::optional<HashedCounter> hashed_counter;
            if (host_table) hashed_counter.emplace(game, plugin_table, *host_table, kCpuHashedDepth, job.stop);
            while (queue.next.load() < cpu_claims_end) {
              const auto [item, end_item] = queue.claim(1);
              if (item >= end_item) break;
              const uint64_t subtree = uncounted[item];
              const StateBlob& state = subtrees.states[subtree];
              const std::optional<uint128> counted =
                  hashed_counter ? hashed_counter->count(state, depth) : counter.count(state, depth);
              if (!counted) { // stopped: the subtree is left uncounted, for a resumed job to count whole
                queue.stopped = true;
                break;
              }
              leaves[subtree] = *counted;
              worker_leaves[w] += leaves[subtree] * subtrees.paths_to(subtree);
              worker_counted[w] = 1;
              record(subtree);
              ++queue.done;
            }
            if (hashed_counter) {
              std::lock_guard lock(counters_mutex);
              add(table_counters, hashed_counter->counters());
            }
            return;
          }
          CudaPerftEngine& engine = *engines[w - job.cpu_threads];
          std::vector<StateBlob> roots;
          // Batches of subtrees sized from the last batch's time (runtime/cuda_calls.hpp), at most gpu_batch.
          run_cuda_calls(queue, gpu_batch, [&](uint64_t item, uint64_t end_item) {
            roots.clear();
            for (uint64_t i = item; i < end_item; ++i) roots.push_back(subtrees.states[uncounted[i]]);
            const std::vector<uint64_t> counts = engine.count(roots, depth);
            if (counts.size() != roots.size())
              throw std::runtime_error(
                  fmt::format("GPU perft engine returned {} counts for {} roots", counts.size(), roots.size()));
            for (uint64_t i = item; i < end_item; ++i) {
              leaves[uncounted[i]] = counts[i - item];
              worker_leaves[w] += uint128{counts[i - item]} * subtrees.paths_to(uncounted[i]);
              record(uncounted[i]);
            }
            worker_counted[w] = 1;
            queue.done += end_item - item;
          });
        } catch (const std::exception& e) {
          queue.fail(e.what());
        }
      });
  } catch (const std::exception& e) {
    queue.fail(e.what());
  }
  monitor.stop();
  std::sort(outcome.progress.counted.begin(), outcome.progress.counted.end());
  outcome.stopped = queue.stopped.load();

  std::vector<uint128> per_root(root_moves.size(), 0);
  for (size_t i = 0; i < subtrees.size(); ++i)
    for (uint64_t k = subtrees.first[i]; k < subtrees.first[i + 1]; ++k)
      per_root[subtrees.weights[k].root_move] += leaves[i] * subtrees.weights[k].paths;
  for (uint128 n : per_root) outcome.leaves += n;
  if (job.divide)
    for (size_t k = 0; k < root_moves.size(); ++k)
      outcome.divide.push_back({root_moves[k], game.move_to_string(job.root, root_moves[k]), per_root[k]});
  bool cpu_counted = false, cuda_counted = false;
  for (unsigned w = 0; w < workers; ++w) {
    const bool cpu = w < job.cpu_threads;
    (cpu ? outcome.cpu_leaves : outcome.cuda_leaves) += worker_leaves[w];
    (cpu ? cpu_counted : cuda_counted) |= worker_counted[w] != 0;
  }
  for (const auto& engine : engines) outcome.device_milliseconds += engine->device_milliseconds();
  outcome.device_milliseconds -= warm_up_milliseconds;
  if (host_table) outcome.hash.host = table_stats(*host_table, table_counters);
  for (const auto& table : device_tables) add(outcome.hash.device, table->stats());
  for (const auto& engine : engines) {
    outcome.hash.frontier_states += engine->frontier_states();
    outcome.hash.duplicates += engine->duplicates();
  }
  // What counted, or when nothing did (an empty tree, an early failure) what was meant to.
  outcome.engine = cpu_counted || cuda_counted ? engine_name(cpu_counted, plugin_table, cuda_counted)
                                               : engine_name(job.cpu_threads > 0, plugin_table, gpu_workers > 0);
  outcome.error = queue.error;
  outcome.wall_seconds = seconds_since_start();
  return outcome;
}

} // namespace gsdk::core
