// canonical_kernels.cu - othello's canonical positions on the device (gsdk.perft_keys.v1's cuda_canonical): one
// thread per position, the rules' own canonicalize (rules/canonical.hpp), so the device writes the host's bytes.
#include "cuda_check.hpp"
#include "othello_game.hpp"
#include "rules/canonical.hpp"

namespace othello {

namespace {

constexpr int kBlock = 256;

// in and out may be the same array: each thread reads its position whole before writing it.
__global__ void canonical_positions(const Position* in, uint32_t count, Position* out) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  Position p = in[i];
  canonicalize(p);
  out[i] = p;
}

} // namespace

void Game::cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const {
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>((uint64_t{count} + kBlock - 1) / kBlock);
  canonical_positions<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(in, count, out);
  cuda::check(cudaGetLastError(), "launching canonical_positions");
}

} // namespace othello
