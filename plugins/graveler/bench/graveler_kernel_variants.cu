// graveler_kernel_variants.cu - the GPU notebook's experiments: the graveler kernel with parts
// switched on and off, timed with events over 1e9 battles. Not part of gsdk; built as
// build/bin/graveler_kernel_variants when CUDA is on. See docs/perf/graveler.md.
#include <cuda_runtime.h>

#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "graveler_rules.hpp"

using graveler::BattleLayout;

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kBins = 232;

enum Counting { kPopcPerWord = 0, kCarrySave = 1, kPtxMadCarry = 2, kPtxMulAddCarry = 3 };

// MWC64X steps written in PTX, to see which SASS the step lowers to (the C++ form needs a 64-bit
// addend {hi, 0} in an aligned register pair, which costs two moves a word).
struct MwcMadCarry {
  uint32_t lo, hi;
  __device__ __forceinline__ uint32_t next() {
    const uint32_t out = lo ^ hi;
    uint32_t nlo, nhi;
    asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, 0;"
        : "=r"(nlo), "=r"(nhi)
        : "r"(lo), "r"(4294883355u), "r"(hi));
    lo = nlo;
    hi = nhi;
    return out;
  }
};

struct MwcMulAddCarry {
  uint32_t lo, hi;
  __device__ __forceinline__ uint32_t next() {
    const uint32_t out = lo ^ hi;
    uint32_t plo, phi, nlo, nhi;
    asm("mul.lo.u32 %0, %4, %5;\n\tmul.hi.u32 %1, %4, %5;\n\tadd.cc.u32 %2, %0, %6;\n\taddc.u32 %3, %1, 0;"
        : "=r"(plo), "=r"(phi), "=r"(nlo), "=r"(nhi)
        : "r"(lo), "r"(4294883355u), "r"(hi));
    lo = nlo;
    hi = nhi;
    return out;
  }
};

template <typename G> __device__ __forceinline__ void count_pair_231(G& g, int& a, int& b) {
  a = 0;
  b = 0;
#pragma unroll
  for (int i = 0; i < 7; ++i) a += __popc(g.next() & g.next());
#pragma unroll
  for (int i = 0; i < 7; ++i) b += __popc(g.next() & g.next());
  const uint32_t t = g.next();
  a += __popc(t & (t >> 7) & 0x7f);
  b += __popc((t >> 14) & (t >> 21) & 0x7f);
}

__device__ __forceinline__ void csa(uint32_t& sum, uint32_t& carry, uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t u = x ^ y;
  sum = u ^ z;
  carry = (x & y) | (u & z);
}

// The ones of 7 ANDed word pairs, by a carry-save tree: 3 popc instead of 7.
__device__ __forceinline__ int ones_of_seven(gsdk::rng::Mwc64x& g) {
  uint32_t x[7];
#pragma unroll
  for (int i = 0; i < 7; ++i) x[i] = g.next() & g.next();
  uint32_t s1, c1, s2, c2, s3, c3, s4, c4;
  csa(s1, c1, x[0], x[1], x[2]);
  csa(s2, c2, s1, x[3], x[4]);
  csa(s3, c3, s2, x[5], x[6]);
  csa(s4, c4, c1, c2, c3);
  return __popc(s3) + 2 * __popc(s4) + 4 * __popc(c4);
}

template <int kCounting, bool kHistogram, bool kExtremes>
__global__ void __launch_bounds__(kThreads)
    variant(uint64_t s0, uint64_t pairs, uint64_t per_thread, unsigned long long* out) {
  __shared__ unsigned int hist[kWarps * kBins];
  using WarpMax = cub::WarpReduce<unsigned long long>;
  __shared__ typename WarpMax::TempStorage warp_max_storage[kWarps];
  for (int i = threadIdx.x; i < kWarps * kBins; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  unsigned int* h = hist + (threadIdx.x >> 5) * kBins;
  const BattleLayout layout = BattleLayout::for_rolls(231);
  const uint64_t t = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t begin = t * per_thread, end = min(begin + per_thread, pairs);
  unsigned long long key = 0;
  if (begin < end) {
    gsdk::rng::Mwc64x g{gsdk::rng::mwc64x_jump(s0, begin * layout.words_per_pair)};
    MwcMadCarry gm{static_cast<uint32_t>(g.state), static_cast<uint32_t>(g.state >> 32)};
    MwcMulAddCarry ga{gm.lo, gm.hi};
    int best = -1, worst = 1 << 30;
    uint64_t best_q = 0, worst_q = 0;
    for (uint64_t q = begin; q < end; ++q) {
      int a, b;
      if (kCounting == kPopcPerWord) {
        graveler::count_pair(g, layout, a, b);
      } else if (kCounting == kPtxMadCarry) {
        count_pair_231(gm, a, b);
      } else if (kCounting == kPtxMulAddCarry) {
        count_pair_231(ga, a, b);
      } else {
        a = ones_of_seven(g);
        b = ones_of_seven(g);
        const uint32_t tail = g.next();
        a += __popc(tail & (tail >> 7) & 0x7f);
        b += __popc((tail >> 14) & (tail >> 21) & 0x7f);
      }
      if (kHistogram) {
        atomicAdd(&h[a], 1u);
        atomicAdd(&h[b], 1u);
      }
      const int hi = max(a, b), lo = min(a, b);
      if (kExtremes) {
        if (hi > best) {
          best = hi;
          best_q = q;
        }
        if (lo < worst) {
          worst = lo;
          worst_q = q;
        }
      } else {
        best = max(best, hi);
      }
    }
    key = (static_cast<unsigned long long>(best) << 53) | (best_q + worst_q + worst);
  }
  key = WarpMax(warp_max_storage[threadIdx.x >> 5]).Reduce(key, ::cuda::maximum<>{}); // lane 0's is the warp's
  if ((threadIdx.x & 31) == 0) atomicMax(out, key);
  __syncthreads();
  if (kHistogram)
    for (int bin = threadIdx.x; bin < kBins; bin += blockDim.x) {
      unsigned long long total = 0;
      for (int w = 0; w < kWarps; ++w) total += hist[w * kBins + bin];
      if (total) atomicAdd(out + 1 + bin, total);
    }
}

template <int kCounting, bool kHistogram, bool kExtremes>
void time_variant(const char* name, uint64_t per_thread_override) {
  const uint64_t battles = 1'000'000'000ull, pairs = battles / 2;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const uint64_t wave = static_cast<uint64_t>(sms) * 2048;
  const uint64_t per_thread = per_thread_override ? per_thread_override : (pairs + wave - 1) / wave;
  const uint64_t threads = (pairs + per_thread - 1) / per_thread;
  const unsigned blocks = static_cast<unsigned>((threads + kThreads - 1) / kThreads);
  unsigned long long* out;
  cudaMalloc(&out, (1 + kBins) * sizeof(unsigned long long));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  const uint64_t s0 = gsdk::rng::mwc64x_seed_state(1);
  std::vector<float> ms;
  for (int rep = 0; rep < 12; ++rep) {
    cudaMemset(out, 0, (1 + kBins) * sizeof(unsigned long long));
    cudaEventRecord(a);
    variant<kCounting, kHistogram, kExtremes><<<blocks, kThreads>>>(s0, pairs, per_thread, out);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    if (rep >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  unsigned long long key = 0;
  cudaMemcpy(&key, out, sizeof key, cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaGetLastError();
  std::printf("%-44s per_thread %6llu  median %.3f ms  min %.3f ms  max=%llu  %s\n", name,
              static_cast<unsigned long long>(per_thread), ms[ms.size() / 2], ms.front(), key >> 53,
              err == cudaSuccess ? "" : cudaGetErrorString(err));
  cudaFree(out);
}

} // namespace

int main() {
  time_variant<kPopcPerWord, true, true>("v1 popc/word + histogram + extremes", 0);
  time_variant<kPopcPerWord, false, true>("popc/word, no histogram", 0);
  time_variant<kPopcPerWord, true, false>("popc/word + histogram, max only", 0);
  time_variant<kCarrySave, true, true>("v2 carry-save + histogram + extremes", 0);
  time_variant<kCarrySave, false, false>("carry-save, max only", 0);
  time_variant<kPtxMadCarry, true, true>("ptx mad.lo.cc/madc.hi + histogram + extremes", 0);
  time_variant<kPtxMulAddCarry, true, true>("ptx mul + add.cc/addc + histogram + extremes", 0);
  time_variant<kPtxMadCarry, false, false>("ptx mad.lo.cc/madc.hi, max only", 0);
  return 0;
}
