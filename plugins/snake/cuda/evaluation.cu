// evaluation.cu - snake's gsdk.evaluation.v1 on a CUDA device: the same values as rules/evaluation.hpp's evaluate
// (the CPU table's), computed by warps rather than one thread a state. A thread flooding a 13-cube alone keeps
// three 1 KB bitsets in local memory, and that traffic was three quarters of a 13-cube beam level; here a state's
// bitset words are spread over the lanes of a group, a word a lane (two or four in dimensions 12 and 13), so the
// flood fill runs in registers: neighbours along dimensions 0-5 are shifts inside a word (as on the CPU), along the
// next ones the word of the lane whose index differs in one bit (a shuffle), along the last ones (12, 13) another
// word of the same lane. Small cubes put several states in a warp (32 / words each). The counts R and D are the
// CPU's exactly: the same sets, built in another order.
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "rules/evaluation.hpp"
#include "snake_game.hpp"

namespace snake {

namespace {

constexpr unsigned kWarpsPerBlock = 4;
constexpr unsigned kFullMask = 0xffffffffu;

// The lanes and words of one state: `group` lanes (a power of two, at most 32), each holding kSlots words; word
// lane + group * slot of the bitset.
template <uint32_t kSlots> struct Layout {
  uint32_t dimension, group;
  uint32_t lane_bits; // log2(group): dimensions 6 .. 6 + lane_bits - 1 cross lanes, the ones above cross slots
};

// Word `slot` of the set adjacent along dimension k to the set x (this lane's words of it); every lane of the
// warp must call it with the same k, as the shuffles take the whole warp.
template <uint32_t kSlots>
__device__ uint64_t along(const Layout<kSlots>& layout, const uint64_t (&x)[kSlots], uint32_t slot, uint32_t k) {
  if (k < 6) {
    const uint64_t low = fitness_detail::low_half(k);
    const uint32_t shift = 1u << k;
    return ((x[slot] & low) << shift) | ((x[slot] >> shift) & low);
  }
  if (k < 6 + layout.lane_bits) return __shfl_xor_sync(kFullMask, x[slot], 1u << (k - 6));
  // x[slot ^ flip] picked by a compare per slot: a computed index would put x in local memory.
  const uint32_t partner = slot ^ (1u << (k - 6 - layout.lane_bits));
  uint64_t word = 0;
#pragma unroll
  for (uint32_t t = 0; t < kSlots; ++t)
    if (t == partner) word = x[t];
  return word;
}

// Every lane's sum of v over its group's lanes.
__device__ uint32_t group_sum(uint32_t v, uint32_t group) {
  for (uint32_t offset = 1; offset < group; offset <<= 1) v += __shfl_xor_sync(kFullMask, v, offset);
  return v;
}

// values[s] = evaluate(kind, states[s]) for the states of the game's dimension; a warp takes 32 / group of them.
template <uint32_t kSlots>
__global__ void evaluation_kernel(const State* states, uint32_t count, Evaluation kind, Layout<kSlots> layout,
                                  int32_t* values) {
  const uint32_t lane = threadIdx.x % 32, group = layout.group;
  const uint64_t warp = uint64_t{blockIdx.x} * kWarpsPerBlock + threadIdx.x / 32;
  const uint64_t index = warp * (32 / group) + lane / group;
  if (warp * (32 / group) >= count) return; // the whole warp: no lane of it has a state
  const bool mine = index < count;          // lanes past the end take part in the shuffles with empty sets
  const uint32_t first_word = lane % group;
  const uint64_t mask = fitness_detail::vertex_mask(layout.dimension);
  uint64_t free[kSlots], head[kSlots];
#pragma unroll
  for (uint32_t j = 0; j < kSlots; ++j) {
    const uint32_t i = first_word + group * j;
    const State* s = states + (mine ? index : 0);
    head[j] = mine ? fitness_detail::head_bit(*s, i) : 0;
    free[j] = mine ? fitness_detail::free_word(*s, i, mask) : 0;
  }
  uint32_t counted[2] = {0, 0}; // F, or R and D
  if (kind == Evaluation::free) {
#pragma unroll
    for (uint32_t j = 0; j < kSlots; ++j) counted[0] += gsdk::bits::popcount64(free[j]);
  } else {
    // The flood fill: seen, the head and the free vertices found so far; fresh, those the last round found.
    uint64_t seen[kSlots], fresh[kSlots];
#pragma unroll
    for (uint32_t j = 0; j < kSlots; ++j) seen[j] = fresh[j] = head[j];
    for (;;) {
      uint64_t next[kSlots];
      bool grew = false;
#pragma unroll
      for (uint32_t j = 0; j < kSlots; ++j) {
        uint64_t n = 0;
        for (uint32_t k = 0; k < layout.dimension; ++k) n |= along(layout, fresh, j, k);
        next[j] = n & free[j] & ~seen[j];
        grew |= next[j] != 0;
      }
      if (!__any_sync(kFullMask, grew)) break;
#pragma unroll
      for (uint32_t j = 0; j < kSlots; ++j) seen[j] |= fresh[j] = next[j];
    }
    // The dead ends: reached free vertices with fewer than two neighbours that are free or the head.
#pragma unroll
    for (uint32_t j = 0; j < kSlots; ++j) fresh[j] = free[j] | head[j];
#pragma unroll
    for (uint32_t j = 0; j < kSlots; ++j) {
      uint64_t one_or_more = 0, two_or_more = 0;
      for (uint32_t k = 0; k < layout.dimension; ++k) {
        const uint64_t n = along(layout, fresh, j, k);
        two_or_more |= one_or_more & n;
        one_or_more |= n;
      }
      const uint64_t reached = seen[j] & ~head[j];
      counted[0] += gsdk::bits::popcount64(reached);
      counted[1] += gsdk::bits::popcount64(reached & ~two_or_more);
    }
  }
  const uint32_t first = group_sum(counted[0], group), second = group_sum(counted[1], group);
  if (!mine || first_word != 0) return;
  if (kind == Evaluation::free) {
    values[index] = static_cast<int32_t>(first);
    return;
  }
  values[index] = reachable_value(first, second);
}

template <uint32_t kSlots>
void launch(const State* states, uint32_t count, Evaluation kind, uint32_t dimension, cudaStream_t stream,
            int32_t* values) {
  const uint32_t words = words64(dimension);
  const uint32_t group = words < 32 ? words : 32;
  uint32_t lane_bits = 0;
  while ((1u << lane_bits) < group) ++lane_bits;
  const uint64_t warps = (uint64_t{count} + 32 / group - 1) / (32 / group);
  const auto blocks = static_cast<unsigned>((warps + kWarpsPerBlock - 1) / kWarpsPerBlock);
  evaluation_kernel<kSlots><<<blocks, 32 * kWarpsPerBlock, 0, stream>>>(
      states, count, kind, Layout<kSlots>{dimension, group, lane_bits}, values);
}

} // namespace

// The states are the instance's, so all of its dimension (a batch mixing dimensions cannot come from one instance).
void Game::cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream, int32_t* values) const {
  if (count == 0) return;
  if (!states || !values)
    throw gsdk::PluginError("snake CUDA evaluation: states and values must be device memory, got NULL");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const uint32_t d = rules_.dimension, words = words64(d);
  const auto s = static_cast<cudaStream_t>(stream);
  if (words <= 32)
    launch<1>(states, count, evaluation_, d, s, values);
  else if (words == 64)
    launch<2>(states, count, evaluation_, d, s, values);
  else
    launch<4>(states, count, evaluation_, d, s, values);
  cuda::check(cudaGetLastError(), "launching the evaluation kernel");
}

} // namespace snake
