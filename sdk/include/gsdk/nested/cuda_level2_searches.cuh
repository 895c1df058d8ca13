// cuda_level2_searches.cuh - gsdk.cuda_level2_searches.v1 for any game with NmcsRules: whole level-2 NMCS
// searches on the GPU, one thread (or warp) per search (search_launch.cuh), each level2_search.hpp's routine
// with its positions and sequences in scratch. A plugin's cuda_level2_scratch_bytes and cuda_level2_searches
// members call the functions below.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/gsdk_plugin.h"
#include "gsdk/nested/level2_search.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/search_launch.cuh"
#include "gsdk/plugin.hpp"

namespace gsdk::nested {

// Scratch: every search's two positions, then every search's two sequences.
template <NmcsRules R> uint64_t cuda_level2_scratch_bytes(const R& rules, uint32_t count) {
  return uint64_t{count} * (2 * uint64_t{rules.search_words()} * sizeof(uint64_t) +
                            2 * uint64_t{rules.max_game_length()} * sizeof(uint32_t));
}

template <NmcsRules R, bool PerWarp>
__global__ void level2_kernel(R rules, const typename R::State* states, const uint64_t* search_streams,
                              const uint64_t* ids, uint32_t count, uint32_t max_moves, uint64_t seed,
                              uint64_t* positions, uint32_t* sequences, gsdk_level2_result* results, uint32_t* moves,
                              uint32_t* record_moves, const uint32_t* stop) {
  extern __shared__ uint32_t workspaces[];
  using Slots = SearchSlots<PerWarp>;
  if (Slots::idle()) return;
  const StridedWords workspace = Slots::workspace(workspaces);
  const uint32_t words = rules.search_words();
  for (uint64_t i = Slots::first(); i < count; i += Slots::stride()) {
    const Level2Scratch scratch{positions + 2 * i * words, positions + (2 * i + 1) * words,
                                sequences + 2 * i * max_moves, sequences + (2 * i + 1) * max_moves};
    results[i] = level2_search(rules, states[i], search_streams + i, ids + i, scratch, workspace, seed,
                               moves + i * max_moves, record_moves + i * max_moves, stop);
  }
}

// Enqueues the searches on `stream` (the table's run_stoppable; stop may be null).
template <NmcsRules R>
void cuda_level2_searches(const R& rules, uint64_t seed, const typename R::State* states,
                          const uint64_t* search_streams, const uint64_t* ids, uint32_t count, int32_t device,
                          void* stream, void* scratch, uint64_t scratch_size, gsdk_level2_result* results,
                          uint32_t* moves, uint32_t* record_moves, const uint32_t* stop) {
  const uint64_t needed = cuda_level2_scratch_bytes(rules, count);
  if (scratch_size < needed)
    throw PluginError("level-2 searches on the GPU: scratch of " + std::to_string(scratch_size) + " bytes, " +
                      std::to_string(needed) + " needed");
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  const auto launch =
      search_launch<level2_kernel<R, true>, level2_kernel<R, false>>(rules.workspace_words(), count, device, R::kOwner);
  auto* positions = static_cast<uint64_t*>(scratch);
  auto* sequences = reinterpret_cast<uint32_t*>(positions + uint64_t{count} * 2 * rules.search_words());
  launch.kernel<<<launch.blocks, launch.threads, launch.shared_bytes, static_cast<cudaStream_t>(stream)>>>(
      rules, states, search_streams, ids, count, rules.max_game_length(), seed, positions, sequences, results, moves,
      record_moves, stop);
  cuda::check(cudaGetLastError(), R::kOwner, "launching the level-2 search kernel");
}

} // namespace gsdk::nested
