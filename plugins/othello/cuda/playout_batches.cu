// playout_batches.cu - othello's random playouts from many start states in one launch, for tree search:
// thread t plays playout t of the batch from start state t / playouts_per_state, and the lanes of a
// warp that share a start state add their wins, draws and losses with one atomic each. Start states
// with at most exact_empties empty squares are solved instead, once each (every playout of theirs reports
// the same outcome), by a block of threads each in a second launch.
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.hpp"
#include "othello_game.hpp"
#include "rules/endgame.hpp"
#include "rules/stepped_game.hpp"

namespace othello {

namespace {

constexpr int kBlock = 256;
constexpr int kSolveBlock = 128;

__global__ void __launch_bounds__(kBlock) batch_kernel(const Position* starts, uint32_t per_state, uint64_t total,
                                                       uint64_t seed, uint64_t first, uint32_t exact_empties,
                                                       PlayoutPolicy policy, gsdk_outcome_counts* outcomes) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t t = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += stride) {
    const auto state = static_cast<uint32_t>(t / per_state);
    if (exact_start(starts[state], exact_empties)) continue;
    const int32_t score = stepped_game(starts[state], seed, first + t, policy);
    // Lanes that arrive together and share a start state count as one group.
    const unsigned arrived = __activemask();
    const unsigned group = __match_any_sync(arrived, state);
    const unsigned wins = __ballot_sync(arrived, score > 0) & group;
    const unsigned draws = __ballot_sync(arrived, score == 0) & group;
    if ((threadIdx.x & 31) != __ffs(group) - 1) continue;
    gsdk_outcome_counts& out = outcomes[state];
    const int win_count = __popc(wins), draw_count = __popc(draws);
    const int loss_count = __popc(group) - win_count - draw_count;
    if (win_count) atomicAdd(&out.wins, static_cast<unsigned>(win_count));
    if (draw_count) atomicAdd(&out.draws, static_cast<unsigned>(draw_count));
    if (loss_count) atomicAdd(&out.losses, static_cast<unsigned>(loss_count));
  }
}

// The positions two plies below a start (its children's replies, passes included), each with the index
// of its parent among the start's children; a child where the game ends has no replies and its value
// at once. At most e (e - 1) replies to replies for e empty squares.
constexpr uint32_t kMaxSplitPairs = kMaxSolvedEmpties * kMaxSolvedEmpties;
struct SplitStart {
  Position grandchild[kMaxSplitPairs];
  uint8_t parent[kMaxSplitPairs];
  int8_t value[kMaxSplitPairs];   // perfect play's outcome from the grandchild's mover's view
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
      gsdk_outcome_counts& out = outcomes[state];
      (black > 0 ? out.wins : black == 0 ? out.draws : out.losses) = per_state;
    }
    __syncthreads(); // `at` is reused by the next state
  }
}

// Random playouts of every start, except those with at most exact_empties empty squares (0: none),
// which are solved.
void run_batches(uint64_t seed, uint64_t first_playout, const Position* states, uint32_t count,
                 uint32_t playouts_per_state, uint32_t exact_empties, PlayoutPolicy policy, int32_t device,
                 void* stream_handle, gsdk_outcome_counts* outcomes) {
  if (count == 0) return;
  if (!states || !outcomes)
    throw gsdk::PluginError("othello CUDA playout batches: states and outcomes must be device memory, got NULL");
  const uint64_t total = uint64_t{count} * playouts_per_state;
  if (total >= (uint64_t{1} << 32))
    throw gsdk::PluginError("othello CUDA playout batches: " + std::to_string(count) + " states x " +
                            std::to_string(playouts_per_state) + " playouts is 2^32 or more");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  cuda::check(cudaMemsetAsync(outcomes, 0, sizeof(gsdk_outcome_counts) * count, stream), "cudaMemsetAsync");
  if (total == 0) return;
  const unsigned blocks = gsdk::cuda::grid_size<batch_kernel>(device, kBlock, total, 0, cuda::kOwner);
  batch_kernel<<<blocks, kBlock, 0, stream>>>(
      states, playouts_per_state, total, seed, first_playout, exact_empties, policy, outcomes);
  cuda::check(cudaGetLastError(), "launching the playout batch kernel");
  if (exact_empties == 0) return;
  const unsigned solve_blocks = gsdk::cuda::grid_size<solve_kernel>(device, kSolveBlock, uint64_t{count} * kSolveBlock,
                                                                           0, cuda::kOwner);
  solve_kernel<<<solve_blocks, kSolveBlock, 0, stream>>>(states, count, playouts_per_state, exact_empties, outcomes);
  cuda::check(cudaGetLastError(), "launching the endgame solve kernel");
}

} // namespace

void Game::cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                uint32_t playouts_per_state, int32_t device, void* stream,
                                gsdk_outcome_counts* outcomes) const {
  run_batches(seed, first_playout, states, count, playouts_per_state, exact_empties_, policy_, device, stream, outcomes);
}

void Game::cuda_random_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                       uint32_t playouts_per_state, int32_t device, void* stream,
                                       gsdk_outcome_counts* outcomes) const {
  run_batches(seed, first_playout, states, count, playouts_per_state, 0, policy_, device, stream, outcomes);
}

} // namespace othello
