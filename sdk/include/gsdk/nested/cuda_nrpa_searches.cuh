// cuda_nrpa_searches.cuh - gsdk.cuda_nrpa_searches.v1 for any game with NrpaRules: whole NRPA searches on the
// GPU, one thread (or warp) per search (search_launch.cuh), each nrpa_search.hpp's routine with its lower
// levels' policies, its sequences and (for games whose codes repeat along a sequence) its adaptation's deltas in
// scratch. A plugin's cuda_nrpa_scratch_bytes and cuda_nrpa_searches members call the functions below.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/gsdk_plugin.h"
#include "gsdk/nested/nrpa_rules.hpp"
#include "gsdk/nested/nrpa_search.hpp"
#include "gsdk/nested/search_launch.cuh"
#include "gsdk/plugin.hpp"

namespace gsdk::nested {

// Where each part of the scratch begins (bytes), every search's share of a part side by side: the lower
// levels' policies, the deferred deltas' values and codes (none for distinct codes), the sequences. Each part
// is a multiple of 8 bytes long, so every part is aligned for its type.
struct NrpaScratch {
  uint64_t deltas_per_search;
  uint64_t delta_values, delta_codes, steps, end;
};

template <NrpaRules R> NrpaScratch nrpa_scratch(const R& rules, uint32_t count, uint32_t level) {
  const uint64_t lower_levels = level > 0 ? level - 1 : 0;
  const uint64_t deltas = (deferred_deltas(rules) + 1) & ~uint64_t{1}; // even: the codes end 8-aligned
  NrpaScratch s{deltas, 0, 0, 0, 0};
  s.delta_values = count * lower_levels * rules.code_count() * sizeof(double);
  s.delta_codes = s.delta_values + count * deltas * sizeof(double);
  s.steps = s.delta_codes + count * deltas * sizeof(uint32_t);
  s.end = s.steps + count * (uint64_t{level} + 1) * rules.max_game_length() * sizeof(typename R::Step);
  return s;
}

template <NrpaRules R> uint64_t cuda_nrpa_scratch_bytes(const R& rules, uint32_t count, uint32_t level) {
  return nrpa_scratch(rules, count, level).end;
}

template <NrpaRules R, bool PerWarp>
__global__ void nrpa_kernel(R rules, NrpaRun run, NrpaBuffers<typename R::Step> buffers, const uint64_t* first_streams,
                            uint32_t count, gsdk_nrpa_result* results, uint32_t* moves, const uint32_t* stop) {
  extern __shared__ uint32_t workspaces[];
  using Slots = SearchSlots<PerWarp>;
  if (Slots::idle()) return;
  const StridedWords workspace = Slots::workspace(workspaces);
  for (uint64_t i = Slots::first(); i < count; i += Slots::stride())
    results[i] = nrpa_search(rules, run, buffers, i, workspace, first_streams, moves, stop);
}

// Enqueues the searches on `stream` (the table's run_stoppable; stop may be null).
template <NrpaRules R>
void cuda_nrpa_searches(const R& rules, uint64_t seed, uint32_t level, uint32_t iterations, double alpha,
                        double* policies, const uint64_t* first_streams, uint32_t count, int32_t device, void* stream,
                        void* scratch, uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                        const uint32_t* stop) {
  if (level < 1 || level > kMaxNrpaLevel)
    throw PluginError("NRPA level " + std::to_string(level) + " on the GPU; expected 1.." +
                      std::to_string(kMaxNrpaLevel));
  if (iterations < 1) throw PluginError("NRPA on the GPU needs at least 1 iteration per level");
  const NrpaScratch layout = nrpa_scratch(rules, count, level);
  if (scratch_size < layout.end)
    throw PluginError("NRPA on the GPU: scratch of " + std::to_string(scratch_size) + " bytes, " +
                      std::to_string(layout.end) + " needed");
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), R::kOwner, "cudaSetDevice");
  const auto launch =
      search_launch<nrpa_kernel<R, true>, nrpa_kernel<R, false>>(rules.workspace_words(), count, device, R::kOwner);
  const NrpaRun run{level, iterations, alpha, seed, rules.code_count(), rules.max_game_length()};
  auto* base = static_cast<unsigned char*>(scratch);
  const NrpaBuffers<typename R::Step> buffers{policies,
                                              reinterpret_cast<double*>(base),
                                              reinterpret_cast<typename R::Step*>(base + layout.steps),
                                              reinterpret_cast<uint32_t*>(base + layout.delta_codes),
                                              reinterpret_cast<double*>(base + layout.delta_values),
                                              layout.deltas_per_search};
  launch.kernel<<<launch.blocks, launch.threads, launch.shared_bytes, static_cast<cudaStream_t>(stream)>>>(
      rules, run, buffers, first_streams, count, results, moves, stop);
  cuda::check(cudaGetLastError(), R::kOwner, "launching the NRPA search kernel");
}

} // namespace gsdk::nested
