// perft_kernels.cu - chess_perft's batch kernels for the core's breadth-first GPU perft engine: one
// thread per position, the same rules headers as the CPU.
#include <cuda_runtime.h>

#include <string>

#include "chess_game.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace chess {

namespace {

constexpr int kBlock = 256;

__global__ void count_one_ply(const Position* states, uint32_t count, uint32_t* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  counts[i] = count_legal_moves(states[i]);
}

// The fused last two plies: make each move and bulk-count the replies.
__global__ void count_two_plies(const Position* states, uint32_t count, uint32_t* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const Position p = states[i];
  uint32_t leaves = 0;
  for_each_legal_move(p, [&](Move m) {
    Position child = p;
    make_move(child, m);
    leaves += count_legal_moves(child);
  });
  counts[i] = leaves;
}

__global__ void generate(const Position* states, uint32_t count, const uint32_t* offsets, uint32_t* moves) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint32_t* out = moves + offsets[i];
  for_each_legal_move(states[i], [&](Move m) { *out++ = m; });
}

__global__ void apply(const Position* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                      Position* children, uint32_t* child_counts) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count) return;
  Position child = states[parents[j]];
  make_move(child, moves[j]);
  children[j] = child;
  if (child_counts) child_counts[j] = count_legal_moves(child);
}

unsigned blocks(uint32_t count) { return (count + kBlock - 1) / kBlock; }

void check_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("chess_perft: launching ") + kernel + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

} // namespace

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  if (plies < 1 || plies > kCudaPerftLeafPlies)
    throw gsdk::PluginError("chess_perft: count_leaves supports 1 or 2 plies, got " + std::to_string(plies));
  if (count == 0) return;
  auto s = static_cast<cudaStream_t>(stream);
  if (plies == 1)
    count_one_ply<<<blocks(count), kBlock, 0, s>>>(states, count, counts);
  else
    count_two_plies<<<blocks(count), kBlock, 0, s>>>(states, count, counts);
  check_launch("count_leaves");
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  if (count == 0) return;
  generate<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, offsets, moves);
  check_launch("generate_moves");
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  if (count == 0) return;
  apply<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, parents, moves, count, children,
                                                                        child_counts);
  check_launch("apply_moves");
}

} // namespace chess
