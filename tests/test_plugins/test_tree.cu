// test_tree.cu - test_tree's gsdk.cuda_perft.v1 kernels and gsdk.perft_keys.v1's cuda_canonical, one thread per
// state or child: deliberately plain, since they exist to test the core's GPU perft engine, not to be fast.
#include <cuda_runtime.h>

#include <string>

#include "test_tree.hpp"

namespace test_tree {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(uint32_t count) {
  return (count + kThreads - 1) / kThreads;
}

void check_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw gsdk::PluginError(std::string("test_tree CUDA: ") + kernel + " failed: " + cudaGetErrorString(status),
                            GSDK_ERR_DEVICE);
}

__global__ void count_leaves_kernel(const State* states, uint32_t count, uint32_t plies, uint32_t max_ply,
                                    uint32_t* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) counts[i] = leaf_count(states[i], plies, max_ply);
}

__global__ void generate_moves_kernel(const State* states, uint32_t count, const uint32_t* offsets, uint32_t max_ply,
                                      uint32_t* moves) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint32_t n = move_count(states[i], max_ply);
  for (uint32_t m = 0; m < n; ++m) moves[offsets[i] + m] = m;
}

__global__ void apply_moves_kernel(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                   uint32_t max_ply, State* children, uint32_t* child_counts) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count) return;
  const State c = child(states[parents[j]], moves[j]);
  children[j] = c;
  if (child_counts) child_counts[j] = move_count(c, max_ply);
}

__global__ void count_leaves_after_moves_kernel(const State* states, const uint32_t* parents, const uint32_t* moves,
                                                uint32_t count, uint32_t plies, uint32_t max_ply, uint32_t* counts) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < count) counts[j] = leaf_count(child(states[parents[j]], moves[j]), plies, max_ply);
}

__global__ void evaluate_kernel(const State* states, uint32_t count, uint32_t max_ply, int32_t* values) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] = tree_value(states[i], max_ply);
}

__global__ void canonical_kernel(const State* in, uint32_t count, int64_t keys_fault, State* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  State s = in[i];
  canonicalize(s, keys_fault);
  if (keys_fault == kKeysFaultDeviceDiffers) s.reserved = 1;
  out[i] = s;
}

void check_plies(const char* function, uint32_t plies) {
  if (plies < 1 || plies > kLeafPlies)
    throw gsdk::PluginError(std::string("test_tree ") + function + ": plies " + std::to_string(plies) +
                            " is outside [1, " + std::to_string(kLeafPlies) + "]");
}

} // namespace

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  check_plies("count_leaves", plies);
  if (count == 0) return;
  count_leaves_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(states, count, plies,
                                                                                             max_ply_, counts);
  check_launch("count_leaves");
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  if (count == 0) return;
  generate_moves_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(states, count, offsets,
                                                                                               max_ply_, moves);
  check_launch("generate_moves");
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  if (fail_apply_) throw gsdk::PluginError("test_tree apply_moves: failing as asked (fail_apply)", GSDK_ERR_DEVICE);
  if (count == 0) return;
  apply_moves_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      states, parents, moves, count, max_ply_, children, child_counts);
  check_launch("apply_moves");
}

void Game::cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                               uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const {
  if (fail_apply_)
    throw gsdk::PluginError("test_tree count_leaves_after_moves: failing as asked (fail_apply)", GSDK_ERR_DEVICE);
  check_plies("count_leaves_after_moves", plies);
  if (count == 0) return;
  count_leaves_after_moves_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      states, parents, moves, count, plies, max_ply_, counts);
  check_launch("count_leaves_after_moves");
}

void Game::cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const {
  if (keys_fault_ == kKeysFaultFails)
    throw gsdk::PluginError("test_tree cuda_canonical: failing as asked (keys_fault 3)", GSDK_ERR_DEVICE);
  canonical_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(in, count, keys_fault_, out);
  check_launch("canonical");
}

void Game::cuda_evaluate(const State* states, uint32_t count, int32_t, void* stream, int32_t* values) const {
  if (count == 0) return;
  evaluate_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(states, count, max_ply_,
                                                                                         values);
  check_launch("evaluate");
}

} // namespace test_tree
