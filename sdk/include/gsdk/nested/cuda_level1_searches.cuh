// cuda_level1_searches.cuh - gsdk.cuda_level1_searches.v1 for any game with NmcsRules: whole level-1 NMCS
// searches on the GPU, one thread (or warp) per search (search_launch.cuh), each level1_search.hpp's routine
// over the search's state blob in place. A plugin's cuda_level1_searches member calls cuda_level1_searches().
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/gsdk_plugin.h"
#include "gsdk/nested/level1_search.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/search_launch.cuh"

namespace gsdk::nested {

template <NmcsRules R, bool PerWarp>
__global__ void level1_kernel(R rules, typename R::State* states, const uint64_t* first_streams, uint32_t count,
                              uint32_t max_moves, uint64_t seed, gsdk_level1_result* results, uint32_t* moves,
                              const uint32_t* stop) {
  extern __shared__ uint32_t workspaces[];
  using Slots = SearchSlots<PerWarp>;
  if (Slots::idle()) return;
  const StridedWords workspace = Slots::workspace(workspaces);
  for (uint64_t i = Slots::first(); i < count; i += Slots::stride()) {
    const Level1Found found = level1_search(rules, rules.search_position(states[i]), workspace, seed, first_streams[i],
                                            moves + i * max_moves, stop);
    results[i] = gsdk_level1_result{found.score, found.playouts, found.move_count, 0};
  }
}

// Enqueues the searches on `stream` (the table's run_stoppable; stop may be null).
template <NmcsRules R>
void cuda_level1_searches(const R& rules, uint64_t seed, typename R::State* states, const uint64_t* first_streams,
                          uint32_t count, int32_t device, void* stream, gsdk_level1_result* results, uint32_t* moves,
                          const uint32_t* stop) {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  const auto launch =
      search_launch<level1_kernel<R, true>, level1_kernel<R, false>>(rules.workspace_words(), count, device, R::kOwner);
  launch.kernel<<<launch.blocks, launch.threads, launch.shared_bytes, static_cast<cudaStream_t>(stream)>>>(
      rules, states, first_streams, count, rules.max_game_length(), seed, results, moves, stop);
  cuda::check(cudaGetLastError(), R::kOwner, "launching the level-1 search kernel");
}

} // namespace gsdk::nested
