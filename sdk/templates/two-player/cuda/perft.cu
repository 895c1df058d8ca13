// perft.cu - connect_four's kernels for the core's breadth-first GPU perft: one thread per position, the
// perft1/perft2 of rules.hpp (also the CPU perft's last two plies).
#include <cuda_runtime.h>

#include <string>

#include "game.hpp"
#include "gsdk/cuda/launch.cuh"

namespace connect_four {

namespace {

constexpr const char* kOwner = "connect_four CUDA perft";
constexpr int kBlock = 256;

__global__ void count_kernel(const State* states, uint32_t count, uint32_t plies, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  counts[i] = plies == 1 ? perft1(states[i]) : perft2(states[i]);
}

__global__ void generate_kernel(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint32_t* out = moves + offsets[i];
  for (uint32_t columns = legal_columns(states[i]); columns != 0; columns &= columns - 1)
    *out++ = lowest_column(columns);
}

__global__ void apply_kernel(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                             State* children, uint32_t* child_counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  State child = states[parents[j]];
  play(child, moves[j]);
  children[j] = child;
  if (child_counts) child_counts[j] = perft1(child);
}

unsigned blocks(uint32_t threads) {
  return (threads + kBlock - 1) / kBlock;
}

void check_launch(const char* kernel) {
  gsdk::cuda::check(cudaGetLastError(), kOwner, kernel);
}

} // namespace

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  if (plies < 1 || plies > kCudaPerftLeafPlies)
    throw gsdk::PluginError(std::string(kOwner) + ": count_leaves counts 1 to " + std::to_string(kCudaPerftLeafPlies) +
                            " plies, got " + std::to_string(plies));
  if (count == 0) return;
  count_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, plies, counts);
  check_launch("launching count_leaves");
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  if (count == 0) return;
  generate_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, offsets, moves);
  check_launch("launching generate_moves");
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  if (count == 0) return;
  apply_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, parents, moves, count, children,
                                                                                child_counts);
  check_launch("launching apply_moves");
}

} // namespace connect_four
