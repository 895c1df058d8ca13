// playout_batches.cu - othello's random playouts from many start states in one launch, for tree search: the SDK's
// template (gsdk/cuda/playout_tables.cuh) over the device rules (device_rules.hpp), thread t playing playout t of
// the batch from start state t / playouts_per_state. Start states with at most exact_empties empty squares are
// then solved, once each, by a block of threads each in a second launch on the same stream, whose outcome replaces
// the random playouts' counts of that state (every playout of an exact state reports perfect play's outcome).
// The template gives the same playouts as othello's own kernel did (equal match digests) at the same speed in UCT on
// an H200, without its warp-lane counting: docs/perf/sdk_templates.md.
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "device_rules.hpp"
#include "gsdk/cuda/playout_tables.cuh"
#include "othello_game.hpp"
#include "rules/endgame.hpp"

namespace othello {

namespace {

constexpr int kSolveBlock = 128;

// The positions two plies below a start (its children's replies, passes included), each with the index
// of its parent among the start's children; a child where the game ends has no replies and its value
// at once. At most e (e - 1) replies to replies for e empty squares.
constexpr uint32_t kMaxSplitPairs = kMaxSolvedEmpties * kMaxSolvedEmpties;
struct SplitStart {
  Position grandchild[kMaxSplitPairs];
  uint8_t parent[kMaxSplitPairs];
  int8_t value[kMaxSplitPairs];     // perfect play's outcome from the grandchild's mover's view
  int8_t terminal_value[kMaxMoves]; // a finished child's outcome from its mover's view, else 2
  uint32_t pairs;
  uint32_t children;
};

// One position's children (its moves, or the pass it must make) into `out`; returns their count.
__device__ uint32_t children_of(const Position& p, Position* out) {
  const Bitboard moves = legal_moves(p);
  if (moves == 0) {
    out[0] = p;
    pass(out[0]);
    return 1;
  }
  uint32_t n = 0;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    out[n] = p;
    play(out[n++], lowest_square(rest));
  }
  return n;
}

// Thread 0 lays out the start's two plies in shared memory.
__device__ void split(const Position& start, SplitStart& at) {
  Position children[kMaxMoves];
  at.children = children_of(start, children);
  at.pairs = 0;
  for (uint32_t c = 0; c < at.children; ++c) {
    const Position& child = children[c];
    at.terminal_value[c] = 2;
    if (game_over(child)) {
      const int32_t own = gsdk::bits::popcount64(child.own), opponent = gsdk::bits::popcount64(child.opponent);
      at.terminal_value[c] = static_cast<int8_t>((own > opponent) - (own < opponent));
      continue;
    }
    const uint32_t first = at.pairs;
    at.pairs += children_of(child, at.grandchild + first);
    for (uint32_t k = first; k < at.pairs; ++k) at.parent[k] = static_cast<uint8_t>(c);
  }
}

// Negamax over the two plies, written with minima only (see Frame in rules/endgame.hpp: nvcc 13 for
// sm_90 was seen to miscompile a loop taking the maximum of negated values): the start's value is
// minus the least child value, a child's value minus the least value of its replies.
__device__ int32_t combine(const SplitStart& at) {
  int32_t least_child = 2;
  for (uint32_t c = 0; c < at.children; ++c) {
    int32_t least_reply = 2;
    for (uint32_t k = 0; k < at.pairs; ++k)
      if (at.parent[k] == c) least_reply = min(least_reply, static_cast<int32_t>(at.value[k]));
    const int32_t child_value = at.terminal_value[c] != 2 ? at.terminal_value[c] : -least_reply;
    least_child = min(least_child, child_value);
  }
  return -least_child;
}

// One block per start state: the positions two plies down are solved by the block's threads side by
// side (a start's own search would run on one thread for its whole tree, while its warp waits for the
// slowest lane), then thread 0 combines their values. Start states that are not solved leave at once.
__global__ void __launch_bounds__(kSolveBlock) solve_kernel(const Position* starts, uint32_t count, uint32_t per_state,
                                                            uint32_t exact_empties, gsdk_outcome_counts* outcomes) {
  __shared__ SplitStart at;
  for (uint32_t state = blockIdx.x; state < count; state += gridDim.x) {
    const Position start = starts[state];
    if (!exact_start(start, exact_empties)) continue;
    if (threadIdx.x == 0) split(start, at); // a finished start: one child, the pass, where the game ends
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < at.pairs; k += blockDim.x)
      at.value[k] = static_cast<int8_t>(perfect_play_outcome(at.grandchild[k]));
    __syncthreads();
    if (threadIdx.x == 0) {
      const int32_t outcome = combine(at);
      const int32_t black = start.side == kBlack ? outcome : -outcome;
      // The whole record: the random playouts of the batch kernel counted this state too.
      outcomes[state] =
          gsdk_outcome_counts{black > 0 ? per_state : 0, black == 0 ? per_state : 0, black < 0 ? per_state : 0, 0};
    }
    __syncthreads(); // `at` is reused by the next state
  }
}

// Solves the start states with at most exact_empties empty squares (0: none) of a batch whose random playouts are
// queued on `stream` already.
void solve_exact_starts(const Position* states, uint32_t count, uint32_t playouts_per_state, uint32_t exact_empties,
                        int32_t device, void* stream, gsdk_outcome_counts* outcomes) {
  if (exact_empties == 0 || count == 0 || playouts_per_state == 0) return;
  const unsigned blocks =
      gsdk::cuda::grid_size<solve_kernel>(device, kSolveBlock, uint64_t{count} * kSolveBlock, 0, cuda::kOwner);
  solve_kernel<<<blocks, kSolveBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, playouts_per_state,
                                                                              exact_empties, outcomes);
  cuda::check(cudaGetLastError(), "launching the endgame solve kernel");
}

} // namespace

void Game::cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                uint32_t playouts_per_state, int32_t device, void* stream,
                                gsdk_outcome_counts* outcomes) const {
  gsdk::cuda::playout_batches(cuda::DeviceRules{{}, convention_, policy_}, seed, first_playout, states, count,
                              playouts_per_state, device, stream, outcomes);
  solve_exact_starts(states, count, playouts_per_state, exact_empties_, device, stream, outcomes);
}

void Game::cuda_random_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                       uint32_t playouts_per_state, int32_t device, void* stream,
                                       gsdk_outcome_counts* outcomes) const {
  gsdk::cuda::playout_batches(cuda::DeviceRules{{}, convention_, policy_}, seed, first_playout, states, count,
                              playouts_per_state, device, stream, outcomes);
}

} // namespace othello
