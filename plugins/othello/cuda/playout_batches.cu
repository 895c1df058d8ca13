// playout_batches.cu - othello's random playouts from many start states in one launch, for tree search:
// thread t plays playout t of the batch from start state t / playouts_per_state, and the lanes of a
// warp that share a start state add their wins, draws and losses with one atomic each. Start states
// with at most exact_empties empty squares are solved instead, one thread per state in a second launch
// (every playout of theirs reports the same outcome, so one search serves them all).
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.hpp"
#include "othello_game.hpp"
#include "rules/endgame.hpp"
#include "rules/random_game.hpp"

namespace othello {

namespace {

constexpr int kBlock = 256;
// The solver's stack lives in local memory (about 1.3 KB a thread): smaller blocks keep more of it in L1.
constexpr int kSolveBlock = 128;

__device__ bool solved(const Position& start, uint32_t exact_empties) {
  return exact_empties > 0 && empty_count(start) <= exact_empties;
}

__global__ void __launch_bounds__(kBlock) batch_kernel(const Position* starts, uint32_t per_state, uint64_t total,
                                                       uint64_t seed, uint64_t first, uint32_t exact_empties,
                                                       gsdk_outcome_counts* outcomes) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t t = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += stride) {
    const auto state = static_cast<uint32_t>(t / per_state);
    if (solved(starts[state], exact_empties)) continue;
    const int32_t score = random_game(starts[state], seed, first + t);
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

__global__ void __launch_bounds__(kSolveBlock) solve_kernel(const Position* starts, uint32_t count, uint32_t per_state,
                                                            uint32_t exact_empties, gsdk_outcome_counts* outcomes) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t state = blockIdx.x * blockDim.x + threadIdx.x; state < count; state += stride) {
    const Position start = starts[state];
    if (!solved(start, exact_empties)) continue;
    const int32_t outcome = perfect_play_outcome(start);
    const int32_t black = start.side == kBlack ? outcome : -outcome;
    gsdk_outcome_counts& out = outcomes[state];
    (black > 0 ? out.wins : black == 0 ? out.draws : out.losses) = per_state;
  }
}

} // namespace

void Game::cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                uint32_t playouts_per_state, int32_t device, void* stream_handle,
                                gsdk_outcome_counts* outcomes) const {
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
      states, playouts_per_state, total, seed, first_playout, exact_empties_, outcomes);
  cuda::check(cudaGetLastError(), "launching the playout batch kernel");
  if (exact_empties_ == 0) return;
  const unsigned solve_blocks = gsdk::cuda::grid_size<solve_kernel>(device, kSolveBlock, count, 0, cuda::kOwner);
  solve_kernel<<<solve_blocks, kSolveBlock, 0, stream>>>(states, count, playouts_per_state, exact_empties_, outcomes);
  cuda::check(cudaGetLastError(), "launching the endgame solve kernel");
}

} // namespace othello
