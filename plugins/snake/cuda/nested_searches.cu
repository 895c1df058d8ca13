// nested_searches.cu - snake's CUDA nested-search tables (gsdk.cuda_level1_searches.v1,
// gsdk.cuda_level2_searches.v1, gsdk.cuda_nrpa_searches.v1): the SDK's searches (gsdk/nested/) over snake's
// device rules (device_rules.hpp), one thread (or warp) per search.
#include "device_rules.hpp"
#include "gsdk/nested/cuda_level1_searches.cuh"
#include "gsdk/nested/cuda_level2_searches.cuh"
#include "gsdk/nested/cuda_nrpa_searches.cuh"
#include "snake_game.hpp"

namespace snake {

uint32_t Game::max_game_length() const {
  return length_bound(rules_.dimension);
}

void Game::cuda_level1_searches(uint64_t seed, State* states, const uint64_t* first_streams, uint32_t count,
                                int32_t device, void* stream, gsdk_level1_result* results, uint32_t* moves,
                                const uint32_t* stop) const {
  gsdk::nested::cuda_level1_searches(cuda::device_rules(rules_, policy_), seed, states, first_streams, count, device,
                                     stream, results, moves, stop);
}

uint64_t Game::cuda_level2_scratch_bytes(uint32_t count) const {
  return gsdk::nested::cuda_level2_scratch_bytes(cuda::device_rules(rules_, policy_), count);
}

void Game::cuda_level2_searches(uint64_t seed, const State* states, const uint64_t* search_streams, const uint64_t* ids,
                                uint32_t count, int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                                gsdk_level2_result* results, uint32_t* moves, uint32_t* record_moves,
                                const uint32_t* stop) const {
  gsdk::nested::cuda_level2_searches(cuda::device_rules(rules_, policy_), seed, states, search_streams, ids, count,
                                     device, stream, scratch, scratch_size, results, moves, record_moves, stop);
}

uint64_t Game::cuda_nrpa_scratch_bytes(uint32_t count, uint32_t level) const {
  return gsdk::nested::cuda_nrpa_scratch_bytes(cuda::device_rules(rules_, policy_), count, level);
}

void Game::cuda_nrpa_searches(uint64_t seed, uint32_t level, uint32_t iterations, double alpha, double* policies,
                              const uint64_t* first_streams, uint32_t count, int32_t device, void* stream,
                              void* scratch, uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                              const uint32_t* stop) const {
  // The device rules start NRPA's playouts in the whole cube (device_rules.hpp).
  if (has_blocked_subcubes())
    throw gsdk::PluginError("NRPA on the GPU plays its playouts in the whole cube; with blocked_subcubes, run NRPA on "
                            "the CPU or NMCS");
  gsdk::nested::cuda_nrpa_searches(cuda::device_rules(rules_, policy_), seed, level, iterations, alpha, policies,
                                   first_streams, count, device, stream, scratch, scratch_size, results, moves, stop);
}

} // namespace snake
