// level1_searches.cu - whole level-1 NMCS searches on the GPU, one thread (or warp) per search (the table
// gsdk.cuda_level1_searches.v1); the search itself is level1_search.cuh's, which the level-2 kernel shares.
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.hpp"
#include "level1_search.cuh"
#include "snake_game.hpp"

namespace snake {

namespace {

template <bool PerWarp>
__global__ void level1_kernel(Rules rules, Policy policy, State* states,
                              const uint64_t* first_streams, uint32_t count, uint32_t words, uint32_t max_moves,
                              uint64_t seed, gsdk_level1_result* results, uint32_t* moves, const uint32_t* stop) {
  extern __shared__ uint32_t bitsets[];
  using Slots = cuda::SearchSlots<PerWarp>;
  if (Slots::idle()) return;
  const cuda::StridedBits child = Slots::bits(bitsets);
  for (uint64_t i = Slots::first(); i < count; i += Slots::stride()) {
    const cuda::Level1Found found = cuda::level1_search(rules, policy, WordBits{states[i].blocked}, walk_of(states[i]),
                                                        child, words, seed, first_streams[i], moves + i * max_moves, stop);
    results[i] = gsdk_level1_result{found.score, found.playouts, found.move_count, 0};
  }
}

} // namespace

uint32_t Game::max_game_length() const {
  return length_bound(rules_.dimension);
}

void Game::cuda_level1_searches(uint64_t seed, State* states, const uint64_t* first_streams, uint32_t count,
                                int32_t device, void* stream_handle, gsdk_level1_result* results, uint32_t* moves,
                                const uint32_t* stop) const {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const auto launch = cuda::search_launch<level1_kernel<true>, level1_kernel<false>>(rules_.dimension, count, device, cuda::kOwner);
  launch.kernel<<<launch.blocks, launch.threads, launch.shared_bytes, static_cast<cudaStream_t>(stream_handle)>>>(
      rules_, policy_, states, first_streams, count, cuda::words32(rules_.dimension), max_game_length(), seed,
      results, moves, stop);
  cuda::check(cudaGetLastError(), "launching the level-1 search kernel");
}

} // namespace snake
