// playout_tables.cuh - gsdk.cuda_playouts.v1 and gsdk.cuda_playout_batches.v1 for any game with PlayoutRules
// (gsdk/nested/nmcs_rules.hpp): a plugin's cuda_scratch_bytes, cuda_playouts and cuda_playout_batches members
// each call one function here.
//  - playouts(): one start state, one thread per playout (grid-stride), each playing in its slot of the
//    block's shared memory (workspace_words() words, interleaved) or in registers. Each score's count and
//    lowest playout number, all an exact summary needs, are gathered per block in shared memory when the
//    game has few scores (one pair of atomics per block and score instead of per playout) and straight into
//    the device table otherwise; a score outside the game's score range is counted apart and reported.
//  - playout_batches(): many start states in one launch for tree search; thread t plays playout t of the
//    batch from start state t / playouts_per_state and adds player 0's result to that state's counts.
// Playout p of seed s is the rules' playout(position, s, p): the one the plugin's CPU table plays, so CPU and
// GPU summaries agree bit for bit.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/cuda/score_table.hpp"
#include "gsdk/gsdk_plugin.h"
#include "gsdk/nested/nmcs_rules.hpp"

namespace gsdk::cuda {

// The scores a game's playouts end with, as its per-state table's score_range() gives them.
using ScoreRange = std::pair<int64_t, int64_t>;

namespace playout_detail {

constexpr uint32_t kMaxBlock = 256;
// Bytes of playout workspaces per block: under the 48 KiB default, with room for the block's score bins.
constexpr uint32_t kWorkspaceBudget = 32 * 1024;
// Games with at most this many scores gather them per block first (16 KiB of shared memory at most).
constexpr uint32_t kBlockBins = 1024;

// Threads per block whose workspaces fit the budget, a multiple of the warp size.
inline uint32_t block_threads(uint32_t workspace_words) {
  if (workspace_words == 0) return kMaxBlock;
  return std::clamp<uint32_t>(kWorkspaceBudget / (workspace_words * 4) / 32 * 32, 32, kMaxBlock);
}

inline uint64_t bins_of(ScoreRange range) {
  return static_cast<uint64_t>(range.second - range.first) + 1;
}

// The scratch of one playouts() call: counts[bins + 1] (the last counts scores out of range), firsts[bins],
// then the start state at an 8-byte boundary.
template <typename State> struct SummaryScratch {
  uint64_t bins;
  uint64_t table_words() const { return 2 * bins + 1; }
  uint64_t bytes() const { return table_words() * 8 + (sizeof(State) + 7) / 8 * 8; }
};

// Block-level score bins live at the front of the dynamic shared memory, the workspaces after them.
template <nested::PlayoutRules R, bool BlockBins>
__global__ void __launch_bounds__(kMaxBlock)
    summary_kernel(R rules, typename R::State* start, uint64_t seed, uint64_t first, uint64_t count, int64_t score_min,
                   uint32_t bins, unsigned long long* counts, unsigned long long* firsts) {
  extern __shared__ unsigned long long shared_words[];
  unsigned long long* bin_counts = counts;
  unsigned long long* bin_firsts = firsts;
  uint32_t* workspaces = reinterpret_cast<uint32_t*>(shared_words);
  if constexpr (BlockBins) {
    bin_counts = shared_words;
    bin_firsts = shared_words + bins + 1;
    workspaces = reinterpret_cast<uint32_t*>(shared_words + 2 * bins + 1);
    for (uint32_t b = threadIdx.x; b <= bins; b += blockDim.x) bin_counts[b] = 0;
    for (uint32_t b = threadIdx.x; b < bins; b += blockDim.x) bin_firsts[b] = ~0ull;
    __syncthreads();
  }
  const nested::StridedWords slot{workspaces + threadIdx.x, blockDim.x};
  const typename R::SearchPosition origin = rules.search_position(*start);
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint64_t playout = first + i;
    typename R::PlayoutPosition position = rules.load(origin, slot);
    rules.playout(position, seed, playout, nested::NoMoveLog{});
    const uint64_t bin = static_cast<uint64_t>(rules.score(position) - score_min);
    if (bin >= bins) {
      atomicAdd(&bin_counts[bins], 1ull);
      continue;
    }
    atomicAdd(&bin_counts[bin], 1ull);
    atomicMin(&bin_firsts[bin], static_cast<unsigned long long>(playout));
  }
  if constexpr (BlockBins) {
    __syncthreads();
    for (uint32_t b = threadIdx.x; b <= bins; b += blockDim.x) {
      if (bin_counts[b] == 0) continue;
      atomicAdd(&counts[b], bin_counts[b]);
      if (b < bins) atomicMin(&firsts[b], bin_firsts[b]);
    }
  }
}

template <nested::PlayoutRules R>
__global__ void __launch_bounds__(kMaxBlock)
    batch_kernel(R rules, const typename R::State* starts, uint32_t per_state, uint64_t total, uint64_t seed,
                 uint64_t first, gsdk_outcome_counts* outcomes) {
  extern __shared__ uint32_t workspaces[];
  const nested::StridedWords slot{workspaces + threadIdx.x, blockDim.x};
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t t = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += stride) {
    const uint64_t state = t / per_state;
    // search_position() takes a writable state; only load() reads the view, so the batch's states stay as given.
    auto& start = const_cast<typename R::State&>(starts[state]);
    typename R::PlayoutPosition position = rules.load(rules.search_position(start), slot);
    rules.playout(position, seed, first + t, nested::NoMoveLog{});
    const int64_t result = rules.score(position);
    gsdk_outcome_counts& out = outcomes[state];
    atomicAdd(result > 0 ? &out.wins : result == 0 ? &out.draws : &out.losses, 1u);
  }
}

} // namespace playout_detail

// The scratch bytes a playouts() call needs, whatever its playout count.
template <nested::PlayoutRules R> uint64_t playout_scratch_bytes(ScoreRange scores) {
  return playout_detail::SummaryScratch<typename R::State>{playout_detail::bins_of(scores)}.bytes();
}

// Plays request.playout_count playouts from `start` (the plugin's checked start state) on `device` and adds
// their exact summary to `summary`, timing the kernel with events. Waits for the kernel.
template <nested::PlayoutRules R>
void playouts(const R& rules, const typename R::State& start, ScoreRange scores, const gsdk_playout_request& request,
              int32_t device, void* stream_handle, void* scratch, uint64_t scratch_size,
              gsdk_playout_summary& summary) {
  using State = typename R::State;
  const playout_detail::SummaryScratch<State> layout{playout_detail::bins_of(scores)};
  if (scratch == nullptr || scratch_size < layout.bytes())
    throw PluginError(std::string(R::kOwner) + ": " +
                      (scratch ? "scratch of " + std::to_string(scratch_size) + " bytes" : std::string("no scratch")) +
                      ", need " + std::to_string(layout.bytes()) + " bytes");
  if (summary.histogram_bins != layout.bins)
    throw PluginError(std::string(R::kOwner) + ": the summary's histogram has " +
                      std::to_string(summary.histogram_bins) + " bins, the game needs " + std::to_string(layout.bins) +
                      " (scores " + std::to_string(scores.first) + ".." + std::to_string(scores.second) + ")");
  if (request.playout_count == 0) return;
  check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  auto* counts = static_cast<unsigned long long*>(scratch);
  auto* firsts = counts + layout.bins + 1;
  auto* device_start = reinterpret_cast<State*>(counts + layout.table_words());
  const auto bins = static_cast<uint32_t>(layout.bins);
  const bool block_bins = layout.bins <= playout_detail::kBlockBins;
  const auto kernel = block_bins ? playout_detail::summary_kernel<R, true> : playout_detail::summary_kernel<R, false>;
  const uint32_t threads = playout_detail::block_threads(rules.workspace_words());
  const size_t shared_bytes =
      size_t{threads} * rules.workspace_words() * 4 + (block_bins ? (2 * size_t{bins} + 1) * 8 : 0);
  const unsigned blocks =
      block_bins ? grid_size<playout_detail::summary_kernel<R, true>>(device, static_cast<int>(threads),
                                                                      request.playout_count, shared_bytes, R::kOwner)
                 : grid_size<playout_detail::summary_kernel<R, false>>(device, static_cast<int>(threads),
                                                                       request.playout_count, shared_bytes, R::kOwner);
  const EventPair events(R::kOwner);
  check(cudaMemcpyAsync(device_start, &start, sizeof(State), cudaMemcpyHostToDevice, stream), R::kOwner,
        "cudaMemcpyAsync");
  check(cudaMemsetAsync(counts, 0, (layout.bins + 1) * 8, stream), R::kOwner, "cudaMemsetAsync");
  check(cudaMemsetAsync(firsts, 0xff, layout.bins * 8, stream), R::kOwner, "cudaMemsetAsync");
  check(cudaEventRecord(events.started, stream), R::kOwner, "cudaEventRecord");
  kernel<<<blocks, threads, shared_bytes, stream>>>(rules, device_start, request.seed, request.first_playout,
                                                    request.playout_count, scores.first, bins, counts, firsts);
  check(cudaGetLastError(), R::kOwner, "launching the playout kernel");
  check(cudaEventRecord(events.finished, stream), R::kOwner, "cudaEventRecord");
  std::vector<unsigned long long> table(layout.table_words());
  check(cudaMemcpyAsync(table.data(), counts, table.size() * 8, cudaMemcpyDeviceToHost, stream), R::kOwner,
        "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), R::kOwner, "the playout kernel");
  float milliseconds = 0;
  check(cudaEventElapsedTime(&milliseconds, events.started, events.finished), R::kOwner, "cudaEventElapsedTime");
  if (const unsigned long long outside = table[layout.bins]; outside != 0)
    throw PluginError(std::string(R::kOwner) + ": " + std::to_string(outside) +
                          " playouts ended with a score outside " + std::to_string(scores.first) + ".." +
                          std::to_string(scores.second) +
                          " (the device rules' score and the game's score_range disagree)",
                      GSDK_ERR_DEVICE);
  add_score_table(summary, {table.data(), layout.bins}, {table.data() + layout.bins + 1, layout.bins}, scores.first,
                  request.playout_count, R::kOwner);
  summary.device_milliseconds += milliseconds;
}

// Enqueues the batch on `stream` and returns (gsdk_cuda_playout_batches' contract: states and outcomes are
// device memory; count * playouts_per_state below 2^32).
template <nested::PlayoutRules R>
void playout_batches(const R& rules, uint64_t seed, uint64_t first_playout, const typename R::State* states,
                     uint32_t count, uint32_t playouts_per_state, int32_t device, void* stream_handle,
                     gsdk_outcome_counts* outcomes) {
  if (count == 0) return;
  if (!states || !outcomes)
    throw PluginError(std::string(R::kOwner) + " playout batches: states and outcomes must be device memory");
  const uint64_t total = uint64_t{count} * playouts_per_state;
  if (total >= (uint64_t{1} << 32))
    throw PluginError(std::string(R::kOwner) + " playout batches: " + std::to_string(count) + " states x " +
                      std::to_string(playouts_per_state) + " playouts is 2^32 or more");
  check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  check(cudaMemsetAsync(outcomes, 0, sizeof(gsdk_outcome_counts) * count, stream), R::kOwner, "cudaMemsetAsync");
  if (total == 0) return;
  const uint32_t threads = playout_detail::block_threads(rules.workspace_words());
  const size_t shared_bytes = size_t{threads} * rules.workspace_words() * 4;
  const unsigned blocks =
      grid_size<playout_detail::batch_kernel<R>>(device, static_cast<int>(threads), total, shared_bytes, R::kOwner);
  playout_detail::batch_kernel<R><<<blocks, threads, shared_bytes, stream>>>(rules, states, playouts_per_state, total,
                                                                             seed, first_playout, outcomes);
  check(cudaGetLastError(), R::kOwner, "launching the playout batch kernel");
}

} // namespace gsdk::cuda
