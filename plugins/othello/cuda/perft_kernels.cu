// perft_kernels.cu - othello's batch kernels for the core's breadth-first GPU perft engine: one thread
// per position, the rules of rules/position.hpp.
#include <string>

#include "cuda_check.hpp"
#include "othello_game.hpp"

namespace othello {

namespace {

constexpr int kBlock = 256;

// perft(p, plies) for plies 1..3 with the two last plies counted without storing positions.
__device__ uint32_t count_plies(const Position& p, uint32_t plies, Convention c) {
  if (plies == 1) return perft1(p, c);
  if (plies == 2) return static_cast<uint32_t>(perft2(p, c));
  const MoveSet moves = move_set(p, c);
  if (moves.pass_only) return static_cast<uint32_t>(perft2(child(p, kPass, c), c));
  uint32_t leaves = 0;
  for (Bitboard rest = moves.squares; rest; rest &= rest - 1)
    leaves += static_cast<uint32_t>(perft2(child(p, lowest_square(rest), c), c));
  return leaves;
}

__global__ void count_kernel(const Position* states, uint32_t count, uint32_t plies, Convention c, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  counts[i] = count_plies(states[i], plies, c);
}

// The same from parents and the moves that lead from them (ABI 1.8): the level above the leaves is never stored.
__global__ void count_after_moves_kernel(const Position* states, const uint32_t* parents, const uint32_t* moves,
                                         uint32_t count, uint32_t plies, Convention c, uint32_t* counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  counts[j] = count_plies(child(states[parents[j]], moves[j], c), plies, c);
}

__global__ void generate_kernel(const Position* states, uint32_t count, Convention c, const uint32_t* offsets,
                                uint32_t* moves) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const MoveSet set = move_set(states[i], c);
  uint32_t* out = moves + offsets[i];
  if (set.pass_only) {
    out[0] = kPass;
    return;
  }
  for (Bitboard rest = set.squares; rest; rest &= rest - 1) *out++ = lowest_square(rest);
}

__global__ void apply_kernel(const Position* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                             Convention c, Position* children, uint32_t* child_counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  const Position next = child(states[parents[j]], moves[j], c);
  children[j] = next;
  if (child_counts) child_counts[j] = perft1(next, c);
}

unsigned blocks(uint64_t threads) { return static_cast<unsigned>((threads + kBlock - 1) / kBlock); }

void check_leaf_plies(uint32_t plies) {
  if (plies < 1 || plies > Game::kCudaPerftLeafPlies)
    throw gsdk::PluginError("othello: count_leaves supports 1 to " + std::to_string(Game::kCudaPerftLeafPlies) +
                            " plies, got " + std::to_string(plies));
}

} // namespace

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  check_leaf_plies(plies);
  if (count == 0) return;
  count_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, plies, convention_,
                                                                                counts);
  cuda::check(cudaGetLastError(), "launching count_leaves");
}

void Game::cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                               uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const {
  check_leaf_plies(plies);
  if (count == 0) return;
  count_after_moves_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
      states, parents, moves, count, plies, convention_, counts);
  cuda::check(cudaGetLastError(), "launching count_leaves_after_moves");
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  if (count == 0) return;
  generate_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, convention_,
                                                                                   offsets, moves);
  cuda::check(cudaGetLastError(), "launching generate_moves");
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  if (count == 0) return;
  apply_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, parents, moves, count,
                                                                                convention_, children, child_counts);
  cuda::check(cudaGetLastError(), "launching apply_moves");
}

} // namespace othello
