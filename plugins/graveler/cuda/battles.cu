// battles.cu - graveler's CUDA path: one thread per run of battle pairs, MWC64X in registers,
// AND + popc counting, per-warp shared histograms.
//
// Extremes are found lazily, as on the CPU: the counting kernel keeps only each thread's max and
// min (one 3-way min/max a pair) and the first 64-pair segment that raised (lowered) them. The
// highest and lowest scores come from the histogram; a second kernel finds the lowest thread that
// reached them and a third rescans that one segment for the exact first battle. This keeps the
// lowest-battle-number tie-break at a fraction of the per-battle cost. Measurements and the
// reasoning behind each choice: docs/perf/graveler.md.
#include "battles_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "../cpu/battle_tally.hpp"
#include "gsdk/plugin.hpp"

namespace graveler::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kMaxBins = kMaxRolls + 1;
constexpr uint64_t kSegmentPairs = 64;
constexpr uint64_t kMaxThreads = uint64_t{1} << 20;
constexpr unsigned long long kNone = ~0ull;

struct ThreadExtremes {
  uint16_t best, worst;
  uint32_t best_segment, worst_segment;
};

struct Header {
  unsigned long long histogram[kMaxBins];
  unsigned long long best_thread, worst_thread;   // lowest thread holding the overall extreme
  unsigned long long best_battle, worst_battle;   // the first battle reaching it (call-relative pair*2+side)
  int best, worst;                                // the overall extremes, read off the histogram
};

struct Launch {
  uint64_t pair_begin, pairs, per_thread, threads;
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("graveler CUDA: ") + what + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

uint64_t threads_for(uint64_t pairs, uint64_t per_thread) { return (pairs + per_thread - 1) / per_thread; }

// Rolls == 0: the layout comes at run time; otherwise it is a compile-time constant so the
// counting loops unroll fully.
template <int Rolls>
__global__ void __launch_bounds__(kThreads)
    count_kernel(BattleLayout runtime_layout, uint64_t seed_state, Launch launch, Header* header, ThreadExtremes* extremes) {
  const BattleLayout layout = Rolls != 0 ? BattleLayout::for_rolls(Rolls) : runtime_layout;
  const int bins = layout.rolls + 1;
  extern __shared__ unsigned int warp_histograms[]; // kWarps x bins
  for (int i = threadIdx.x; i < kWarps * bins; i += blockDim.x) warp_histograms[i] = 0;
  __syncthreads();

  unsigned int* histogram = warp_histograms + (threadIdx.x >> 5) * bins;
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread < launch.threads) {
    const uint64_t begin = thread * launch.per_thread;
    const uint64_t end = min(begin + launch.per_thread, launch.pairs);
    gsdk::rng::Mwc64x g{gsdk::rng::mwc64x_jump(seed_state, (launch.pair_begin + begin) * layout.words_per_pair)};
    int best = -1, worst = 1 << 30;
    uint32_t best_segment = 0, worst_segment = 0;
    for (uint64_t segment_begin = begin, segment = 0; segment_begin < end; segment_begin += kSegmentPairs, ++segment) {
      const uint64_t segment_end = min(segment_begin + kSegmentPairs, end);
      const int best_before = best, worst_before = worst;
      for (uint64_t q = segment_begin; q < segment_end; ++q) {
        int a, b;
        count_pair(g, layout, a, b);
        atomicAdd(&histogram[a], 1u);
        atomicAdd(&histogram[b], 1u);
        best = __vimax3_s32(best, a, b);
        worst = __vimin3_s32(worst, a, b);
      }
      if (best > best_before) best_segment = static_cast<uint32_t>(segment);
      if (worst < worst_before) worst_segment = static_cast<uint32_t>(segment);
    }
    extremes[thread] = ThreadExtremes{static_cast<uint16_t>(best), static_cast<uint16_t>(worst), best_segment,
                                      worst_segment};
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < bins; bin += blockDim.x) {
    unsigned long long total = 0;
    for (int w = 0; w < kWarps; ++w) total += warp_histograms[w * bins + bin];
    if (total != 0) atomicAdd(&header->histogram[bin], total);
  }
}

// The overall extremes from the histogram, then the lowest thread that holds each.
__global__ void find_threads_kernel(int bins, Launch launch, Header* header, const ThreadExtremes* extremes) {
  __shared__ int best, worst;
  if (threadIdx.x == 0) {
    best = -1;
    worst = -1;
    for (int k = 0; k < bins; ++k)
      if (header->histogram[k] != 0) {
        if (worst < 0) worst = k;
        best = k;
      }
    if (blockIdx.x == 0) {
      header->best = best;
      header->worst = worst;
    }
  }
  __syncthreads();
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread >= launch.threads) return;
  const ThreadExtremes e = extremes[thread];
  if (e.best == best) atomicMin(&header->best_thread, static_cast<unsigned long long>(thread));
  if (e.worst == worst) atomicMin(&header->worst_thread, static_cast<unsigned long long>(thread));
}

// Thread 0 rescans the best's segment, thread 1 the worst's, for the first battle reaching it.
template <int Rolls>
__global__ void resolve_kernel(BattleLayout runtime_layout, uint64_t seed_state, Launch launch, Header* header,
                               const ThreadExtremes* extremes) {
  const BattleLayout layout = Rolls != 0 ? BattleLayout::for_rolls(Rolls) : runtime_layout;
  const bool best = threadIdx.x == 0;
  if (threadIdx.x > 1) return;
  const uint64_t thread = best ? header->best_thread : header->worst_thread;
  const int target = best ? header->best : header->worst;
  const ThreadExtremes e = extremes[thread];
  const uint64_t thread_end = min((thread + 1) * launch.per_thread, launch.pairs);
  const uint64_t begin = thread * launch.per_thread + (best ? e.best_segment : e.worst_segment) * kSegmentPairs;
  const uint64_t end = min(begin + kSegmentPairs, thread_end);
  gsdk::rng::Mwc64x g{gsdk::rng::mwc64x_jump(seed_state, (launch.pair_begin + begin) * layout.words_per_pair)};
  for (uint64_t q = begin; q < end; ++q) {
    int a, b;
    count_pair(g, layout, a, b);
    if (a == target || b == target) {
      (best ? header->best_battle : header->worst_battle) = 2 * q + (a == target ? 0 : 1);
      return;
    }
  }
}

// Runs of at least 64 pairs a thread (a thread's first word costs one ~100-product jump) and
// exactly one wave of resident threads, so no SM idles through a partial second wave; never more
// than kMaxThreads threads.
template <int Rolls> Launch plan(uint64_t pair_begin, uint64_t pairs, int device, size_t shared) {
  int sms = 0, blocks_per_sm = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, count_kernel<Rolls>, kThreads, shared),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const uint64_t wave = std::min<uint64_t>(static_cast<uint64_t>(sms) * std::max(blocks_per_sm, 1) * kThreads, kMaxThreads);
  const uint64_t per_thread = std::max<uint64_t>(kSegmentPairs, (pairs + wave - 1) / wave);
  return Launch{pair_begin, pairs, per_thread, threads_for(pairs, per_thread)};
}

template <int Rolls>
void launch_kernels(const BattleLayout& layout, uint64_t seed_state, uint64_t pair_begin, uint64_t pairs, int device,
                     Header* header, ThreadExtremes* extremes, cudaStream_t stream, cudaEvent_t start,
                     cudaEvent_t stop) {
  const size_t shared = static_cast<size_t>(kWarps) * (layout.rolls + 1) * sizeof(unsigned int);
  const Launch launch = plan<Rolls>(pair_begin, pairs, device, shared);
  const unsigned blocks = static_cast<unsigned>((launch.threads + kThreads - 1) / kThreads);
  check(cudaEventRecord(start, stream), "cudaEventRecord");
  count_kernel<Rolls><<<blocks, kThreads, shared, stream>>>(layout, seed_state, launch, header, extremes);
  check(cudaGetLastError(), "count_kernel launch");
  find_threads_kernel<<<blocks, kThreads, 0, stream>>>(layout.rolls + 1, launch, header, extremes);
  check(cudaGetLastError(), "find_threads_kernel launch");
  resolve_kernel<Rolls><<<1, 32, 0, stream>>>(layout, seed_state, launch, header, extremes);
  check(cudaGetLastError(), "resolve_kernel launch");
  check(cudaEventRecord(stop, stream), "cudaEventRecord");
}

} // namespace

uint64_t scratch_bytes(int) { return sizeof(Header) + kMaxThreads * sizeof(ThreadExtremes) + 256; }

void run_battles(const BattleLayout& layout, int ones_offset, uint64_t seed, uint64_t first, uint64_t count,
                 int32_t device, void* stream_handle, void* scratch, uint64_t scratch_size,
                 gsdk_playout_summary& summary) {
  if (count == 0) return;
  if (scratch == nullptr || scratch_size < scratch_bytes(layout.rolls))
    throw gsdk::PluginError("graveler CUDA: scratch of " + std::to_string(scratch_size) + " bytes, need " +
                            std::to_string(scratch_bytes(layout.rolls)));
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  auto* header = static_cast<Header*>(scratch);
  auto* extremes = reinterpret_cast<ThreadExtremes*>(static_cast<unsigned char*>(scratch) + ((sizeof(Header) + 255) & ~size_t{255}));

  // Battles of pairs straddling the range's ends are few: the host's scalar reference takes them.
  cpu::BattleTally tally(layout.rolls);
  const uint64_t end = first + count;
  if (first & 1) tally.record(battle_ones(seed, layout, first), first);
  if (end & 1) tally.record(battle_ones(seed, layout, end - 1), end - 1);
  const uint64_t pair_begin = (first + 1) / 2;
  const uint64_t pairs = end / 2 > pair_begin ? end / 2 - pair_begin : 0;

  if (pairs > 0) {
    check(cudaMemsetAsync(header, 0, sizeof(Header), stream), "cudaMemsetAsync");
    check(cudaMemsetAsync(&header->best_thread, 0xff, 4 * sizeof(unsigned long long), stream), "cudaMemsetAsync");
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    const uint64_t seed_state = gsdk::rng::mwc64x_seed_state(seed);
    if (layout.rolls == kDefaultRolls)
      launch_kernels<kDefaultRolls>(layout, seed_state, pair_begin, pairs, device, header, extremes, stream, start, stop);
    else
      launch_kernels<0>(layout, seed_state, pair_begin, pairs, device, header, extremes, stream, start, stop);
    Header result;
    check(cudaMemcpyAsync(&result, header, sizeof(Header), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "graveler kernels");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, start, stop), "cudaEventElapsedTime");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (result.best_battle == kNone || result.worst_battle == kNone)
      throw gsdk::PluginError("graveler CUDA: the extremes' battles were not found (device result inconsistent)",
                              GSDK_ERR_INTERNAL);

    for (int k = 0; k <= layout.rolls; ++k) tally.histogram[k] += result.histogram[k];
    tally.record_extremes(result.best, 2 * pair_begin + result.best_battle);
    tally.record_extremes(result.worst, 2 * pair_begin + result.worst_battle);
    summary.device_milliseconds += milliseconds;
  }
  tally.flush_into(summary, ones_offset);
}

} // namespace graveler::cuda
