// battles.cu - graveler's CUDA kernel: one thread per run of battle pairs, MWC64X in registers,
// AND + popc counting, per-warp shared histograms, and 64-bit keys that make the max and min (with
// their lowest battle numbers) single atomics. See docs/perf/graveler.md for the measurements.
#include "battles_cuda.hpp"

#include <cuda_runtime.h>

#include <string>

#include "../cpu/battle_tally.hpp"
#include "gsdk/cuda/reduce.cuh"
#include "gsdk/plugin.hpp"

namespace graveler::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kMaxBins = kMaxRolls + 1;
constexpr int kKeyShift = 53; // battle numbers below 2^53; ones (<= 1024) above
constexpr unsigned long long kBattleMask = (1ull << kKeyShift) - 1;

struct Scratch {
  unsigned long long best_key;
  unsigned long long worst_key;
  unsigned long long histogram[kMaxBins];
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("graveler CUDA: ") + what + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

// Rolls == 0: the layout comes at run time; otherwise it is a compile-time constant so the
// counting loops unroll fully.
template <int Rolls>
__global__ void __launch_bounds__(kThreads) battles_kernel(BattleLayout runtime_layout, uint64_t seed_state,
                                                           uint64_t pair_begin, uint64_t pairs,
                                                           uint64_t pairs_per_thread, Scratch* out) {
  const BattleLayout layout = Rolls != 0 ? BattleLayout::for_rolls(Rolls) : runtime_layout;
  const int bins = layout.rolls + 1;
  extern __shared__ unsigned int warp_histograms[]; // kWarps x bins
  for (int i = threadIdx.x; i < kWarps * bins; i += blockDim.x) warp_histograms[i] = 0;
  __syncthreads();

  unsigned int* histogram = warp_histograms + (threadIdx.x >> 5) * bins;
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t begin = thread * pairs_per_thread;
  const uint64_t end = min(begin + pairs_per_thread, pairs);
  unsigned long long best_key = 0, worst_key = ~0ull;
  if (begin < end) {
    gsdk::rng::Mwc64x g{gsdk::rng::mwc64x_jump(seed_state, (pair_begin + begin) * layout.words_per_pair)};
    int best = -1, worst = 1 << 30;
    uint64_t best_pair = 0, worst_pair = 0;
    bool best_second = false, worst_second = false;
    for (uint64_t q = begin; q < end; ++q) {
      int a, b;
      count_pair(g, layout, a, b);
      atomicAdd(&histogram[a], 1u);
      atomicAdd(&histogram[b], 1u);
      const int hi = max(a, b), lo = min(a, b);
      if (hi > best) {
        best = hi;
        best_pair = q;
        best_second = b > a;
      }
      if (lo < worst) {
        worst = lo;
        worst_pair = q;
        worst_second = b < a;
      }
    }
    const uint64_t best_battle = 2 * (pair_begin + best_pair) + (best_second ? 1 : 0);
    const uint64_t worst_battle = 2 * (pair_begin + worst_pair) + (worst_second ? 1 : 0);
    best_key = (static_cast<unsigned long long>(best) << kKeyShift) | (kBattleMask - best_battle);
    worst_key = (static_cast<unsigned long long>(worst) << kKeyShift) | worst_battle;
  }
  best_key = gsdk::cuda::warp_max(best_key);
  worst_key = ~gsdk::cuda::warp_max(~worst_key);
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&out->best_key, best_key);
    atomicMin(&out->worst_key, worst_key);
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < bins; bin += blockDim.x) {
    unsigned long long total = 0;
    for (int w = 0; w < kWarps; ++w) total += warp_histograms[w * bins + bin];
    if (total != 0) atomicAdd(&out->histogram[bin], total);
  }
}

} // namespace

uint64_t scratch_bytes(int) { return sizeof(Scratch); }

void run_battles(const BattleLayout& layout, int ones_offset, uint64_t seed, uint64_t first, uint64_t count,
                 int32_t device, void* stream_handle, void* scratch, uint64_t scratch_size,
                 gsdk_playout_summary& summary) {
  if (count == 0) return;
  if (scratch_size < sizeof(Scratch) || scratch == nullptr)
    throw gsdk::PluginError("graveler CUDA: scratch of " + std::to_string(scratch_size) + " bytes, need " +
                            std::to_string(sizeof(Scratch)));
  if (first + count > kBattleMask)
    throw gsdk::PluginError("graveler CUDA: battle numbers must stay below 2^53");
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  auto* out = static_cast<Scratch*>(scratch);

  // Battles of pairs straddling the range's ends are few: the host's scalar reference takes them.
  cpu::BattleTally edges(layout.rolls);
  const uint64_t end = first + count;
  if (first & 1) edges.record(battle_ones(seed, layout, first), first);
  if (end & 1) edges.record(battle_ones(seed, layout, end - 1), end - 1);
  const uint64_t pair_begin = (first + 1) / 2;
  const uint64_t pair_end = end / 2 > pair_begin ? end / 2 : pair_begin;
  const uint64_t pairs = pair_end - pair_begin;

  if (pairs > 0) {
    int sms = 0;
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    // One full wave of threads at 2048 per SM; each thread's first word costs one jump (~100
    // Montgomery products), so runs are kept long.
    const uint64_t wave = static_cast<uint64_t>(sms) * 2048;
    uint64_t per_thread = (pairs + wave - 1) / wave;
    if (per_thread < 64) per_thread = 64;
    const uint64_t threads = (pairs + per_thread - 1) / per_thread;
    const unsigned blocks = static_cast<unsigned>((threads + kThreads - 1) / kThreads);
    const size_t shared = static_cast<size_t>(kWarps) * (layout.rolls + 1) * sizeof(unsigned int);

    Scratch initial{};
    initial.best_key = 0;
    initial.worst_key = ~0ull;
    check(cudaMemsetAsync(out, 0, sizeof(Scratch), stream), "cudaMemsetAsync");
    check(cudaMemcpyAsync(&out->worst_key, &initial.worst_key, sizeof(initial.worst_key), cudaMemcpyHostToDevice,
                          stream),
          "cudaMemcpyAsync");
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    const uint64_t seed_state = gsdk::rng::mwc64x_seed_state(seed);
    if (layout.rolls == kDefaultRolls)
      battles_kernel<kDefaultRolls><<<blocks, kThreads, shared, stream>>>(layout, seed_state, pair_begin, pairs,
                                                                          per_thread, out);
    else
      battles_kernel<0><<<blocks, kThreads, shared, stream>>>(layout, seed_state, pair_begin, pairs, per_thread,
                                                              out);
    check(cudaGetLastError(), "battles_kernel launch");
    check(cudaEventRecord(stop, stream), "cudaEventRecord");

    Scratch result;
    check(cudaMemcpyAsync(&result, out, sizeof(Scratch), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "battles_kernel");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, start, stop), "cudaEventElapsedTime");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);

    for (int k = 0; k <= layout.rolls; ++k) edges.histogram[k] += result.histogram[k];
    edges.record_extremes(static_cast<int>(result.best_key >> kKeyShift), kBattleMask - (result.best_key & kBattleMask));
    edges.record_extremes(static_cast<int>(result.worst_key >> kKeyShift), result.worst_key & kBattleMask);
    summary.device_milliseconds += milliseconds;
  }
  edges.flush_into(summary, ones_offset);
}

} // namespace graveler::cuda
