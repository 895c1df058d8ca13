// nrpa_searches.cu - whole NRPA searches on the GPU, one thread (or warp) per search (the table
// gsdk.cuda_nrpa_searches.v1). A thread runs core's NRPA state machine: its playouts move in a bitset in
// shared memory; its policies (the caller's for the top level, one copy per level below in scratch) and
// its sequences stay in global memory. A sequence is kept as one word per step - head vertex, legal
// dimensions, dimension played - so adapting to it needs no replay. The arithmetic is
// gsdk/nrpa/policy_softmax.hpp's, so a search finds on the GPU the sequence it finds on the CPU.
//
// Core's CPU adaptation computes every step's deltas before applying any; here each step is applied as it
// is computed. Both give the same bits because a snake's steps have different head vertices, and a code
// names its head vertex: no step reads a weight that another step changes.
//
// A stop request (ABI 1.6) is read after each playout; it closes every open call as if its iterations were
// done, so the search ends with the best of its playouts so far.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>

#include "cuda_check.hpp"
#include "gsdk/cuda/stop_request.cuh"
#include "gsdk/nrpa/policy_softmax.hpp"
#include "gsdk/rng/philox.hpp"
#include "snake_game.hpp"
#include "strided_bits.cuh"

namespace snake {

namespace {

using cuda::SearchSlots;
using cuda::StridedBits;
using gsdk::nrpa::adaptation_loss;
using gsdk::nrpa::softmax_pick;
using gsdk::nrpa::softmax_weights;

constexpr uint32_t kMaxLevel = 16;

// One step of a sequence in a word: head vertex (bits 0-13), legal dimensions (14-27), dimension played (28-31).
constexpr uint32_t kFieldBits = 14;
constexpr uint32_t kFieldMask = (1u << kFieldBits) - 1;
GSDK_HD uint32_t step_word(uint32_t head, uint32_t legal, uint32_t played) {
  return head | legal << kFieldBits | played << (2 * kFieldBits);
}
GSDK_HD uint32_t step_head(uint32_t w) { return w & kFieldMask; }
GSDK_HD uint32_t step_legal(uint32_t w) { return (w >> kFieldBits) & kFieldMask; }
GSDK_HD uint32_t step_played(uint32_t w) { return w >> (2 * kFieldBits); }

// The codes of a step's legal dimensions (head * d + k, k ascending as legal_moves lists them); returns how many.
GSDK_HD uint32_t step_codes(uint32_t head, uint32_t legal, uint32_t dimension, uint32_t* codes) {
  uint32_t n = 0;
  for (uint32_t rest = legal; rest; rest &= rest - 1) codes[n++] = head * dimension + lowest_bit(rest);
  return n;
}

// The k-th set bit of mask.
GSDK_HD uint32_t nth_bit(uint32_t mask, uint32_t k) {
  for (; k > 0; --k) mask &= mask - 1;
  return lowest_bit(mask);
}

struct Settings {
  Rules rules;
  uint32_t level;
  uint32_t iterations;
  double alpha;
  uint64_t seed;
  uint32_t code_count;
  uint32_t max_moves;
  uint32_t words; // 32-bit words of a bitset
};

// A policy playout from the initial state into `steps`; returns its length.
__device__ uint32_t policy_playout(const Settings& s, const StridedBits& bits, const double* policy, uint64_t stream,
                                   uint32_t* steps) {
  for (uint32_t w = 0; w < s.words; ++w) bits.word0[w * bits.stride] = 0;
  gsdk::rng::PhiloxStream random(s.seed, stream);
  uint32_t codes[kMaxDimension];
  double weights[kMaxDimension];
  Walk walk{0, 0, 0};
  for (uint32_t legal = legal_dimensions(s.rules, bits, walk); legal; legal = legal_dimensions(s.rules, bits, walk)) {
    uint32_t played = lowest_bit(legal);
    const uint32_t n = step_codes(walk.head, legal, s.rules.dimension, codes);
    if (n > 1) {
      const double total = softmax_weights(policy, codes, n, weights);
      played = nth_bit(legal, softmax_pick(weights, n, total, random.uniform()));
    }
    steps[walk.length] = step_word(walk.head, legal, played);
    advance(s.rules, bits, walk, played);
  }
  return walk.length;
}

// Rosin's adaptation of `policy` towards the sequence `steps` of `length` steps.
__device__ void adapt(const Settings& s, double* policy, const uint32_t* steps, uint32_t length) {
  uint32_t codes[kMaxDimension];
  double weights[kMaxDimension];
  for (uint32_t t = 0; t < length; ++t) {
    const uint32_t w = steps[t];
    const uint32_t n = step_codes(step_head(w), step_legal(w), s.rules.dimension, codes);
    if (n < 2) continue;
    const double total = softmax_weights(policy, codes, n, weights);
    policy[step_head(w) * s.rules.dimension + step_played(w)] += s.alpha;
    for (uint32_t k = 0; k < n; ++k) policy[codes[k]] += adaptation_loss(s.alpha, weights[k], total);
  }
}

__device__ void copy_policy(const double* from, double* to, uint32_t count) {
  for (uint32_t c = 0; c < count; ++c) to[c] = from[c];
}

// A search's levels: level l's best sequence lives in step buffer slot[l] (slot 0 is the playout being
// played), so taking a call's result as the best is a swap of slots, not a copy.
struct Levels {
  uint32_t slot[kMaxLevel + 1];
  uint32_t length[kMaxLevel + 1];
  int64_t score[kMaxLevel + 1];
  uint32_t iteration[kMaxLevel + 1];

  // Level l's call of level l - 1 returned its best sequence; a tie replaces the best, as in core's NRPA.
  __device__ void take_call(uint32_t l) {
    if (score[l - 1] < score[l]) return;
    const uint32_t taken = slot[l - 1];
    slot[l - 1] = slot[l], slot[l] = taken;
    length[l] = length[l - 1], score[l] = score[l - 1];
  }
};

template <bool PerWarp>
__global__ void nrpa_kernel(Settings s, double* top_policies, double* lower_policies,
                            uint32_t* step_buffers, const uint64_t* first_streams, uint32_t count,
                            gsdk_nrpa_result* results, uint32_t* moves, const uint32_t* stop) {
  extern __shared__ uint32_t bitsets[];
  using Slots = SearchSlots<PerWarp>;
  if (Slots::idle()) return;
  const StridedBits bits = Slots::bits(bitsets);
  for (uint64_t i = Slots::first(); i < count; i += Slots::stride()) {
    const auto policy = [&](uint32_t l) {
      return l == s.level ? top_policies + i * s.code_count
                          : lower_policies + (i * (s.level - 1) + (l - 1)) * uint64_t{s.code_count};
    };
    const auto steps = [&](uint32_t buffer) { return step_buffers + (i * (s.level + 1) + buffer) * uint64_t{s.max_moves}; };
    Levels v;
    for (uint32_t l = 0; l <= s.level; ++l) v.slot[l] = l, v.length[l] = 0, v.score[l] = LLONG_MIN, v.iteration[l] = 0;
    // Opens the next call of level l - 1, down to level 1 (whose calls are playouts).
    const auto start_iteration = [&](uint32_t l) {
      for (; l > 1; --l) {
        copy_policy(policy(l), policy(l - 1), s.code_count);
        v.length[l - 1] = 0, v.score[l - 1] = LLONG_MIN, v.iteration[l - 1] = 0;
      }
    };
    start_iteration(s.level);
    uint64_t stream = first_streams[i];
    uint32_t stopped_after = 0; // playouts, when a stop request ended the search early
    for (bool done = false; !done;) {
      v.length[0] = policy_playout(s, bits, policy(1), stream++, steps(v.slot[0]));
      v.score[0] = v.length[0];
      for (uint32_t l = 1;; ++l) { // level l's call of level l - 1 returned the sequence of level l - 1
        v.take_call(l);
        adapt(s, policy(l), steps(v.slot[l]), v.length[l]);
        if (++v.iteration[l] < s.iterations) {
          start_iteration(l);
          break;
        }
        if (l == s.level) {
          done = true;
          break;
        }
      }
      if (!done && gsdk::cuda::stop_requested(stop)) {
        // The calls opened since (reset to no sequence) return nothing better; the others return their best.
        for (uint32_t l = 2; l <= s.level; ++l)
          if (v.score[l - 1] != LLONG_MIN) v.take_call(l);
        const uint64_t ran = stream - first_streams[i];
        stopped_after = ran < UINT32_MAX ? static_cast<uint32_t>(ran) : UINT32_MAX;
        done = true;
      }
    }
    const uint32_t* best = steps(v.slot[s.level]);
    for (uint32_t t = 0; t < v.length[s.level]; ++t) moves[i * s.max_moves + t] = step_played(best[t]);
    results[i] = gsdk_nrpa_result{v.score[s.level], v.length[s.level], stopped_after};
  }
}

} // namespace

uint64_t Game::cuda_nrpa_scratch_bytes(uint32_t count, uint32_t level) const {
  const uint64_t policies = uint64_t{level > 0 ? level - 1 : 0} * code_count() * sizeof(double);
  const uint64_t steps = uint64_t{level + 1} * max_game_length() * sizeof(uint32_t);
  return count * (policies + steps);
}

void Game::cuda_nrpa_searches(uint64_t seed, uint32_t level, uint32_t iterations, double alpha, double* policies,
                              const uint64_t* first_streams, uint32_t count, int32_t device, void* stream_handle,
                              void* scratch, uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                              const uint32_t* stop) const {
  if (level < 1 || level > kMaxLevel)
    throw gsdk::PluginError("NRPA level " + std::to_string(level) + " on the GPU; expected 1.." + std::to_string(kMaxLevel));
  if (iterations < 1) throw gsdk::PluginError("NRPA on the GPU needs at least 1 iteration per level");
  if (has_blocked_subcubes())
    throw gsdk::PluginError("NRPA on the GPU plays its playouts in the whole cube; with blocked_subcubes, run NRPA on "
                            "the CPU or NMCS");
  if (scratch_size < cuda_nrpa_scratch_bytes(count, level))
    throw gsdk::PluginError("NRPA on the GPU: scratch of " + std::to_string(scratch_size) + " bytes, " +
                            std::to_string(cuda_nrpa_scratch_bytes(count, level)) + " needed");
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const auto launch = cuda::search_launch<nrpa_kernel<true>, nrpa_kernel<false>>(rules_.dimension, count, device, cuda::kOwner);
  const Settings settings{rules_, level, iterations, alpha, seed, code_count(), max_game_length(),
                          cuda::words32(rules_.dimension)};
  auto* lower_policies = static_cast<double*>(scratch);
  auto* step_buffers = reinterpret_cast<uint32_t*>(lower_policies + uint64_t{count} * (level - 1) * code_count());
  launch.kernel<<<launch.blocks, launch.threads, launch.shared_bytes, static_cast<cudaStream_t>(stream_handle)>>>(
      settings, policies, lower_policies, step_buffers, first_streams, count, results, moves, stop);
  cuda::check(cudaGetLastError(), "launching the NRPA search kernel");
}

} // namespace snake
