// test_chain.cu - test_chain's CUDA tables: the SDK's nested searches over its device rules, a line each.
#include "gsdk/nested/cuda_level1_searches.cuh"
#include "gsdk/nested/cuda_level2_searches.cuh"
#include "gsdk/nested/cuda_nrpa_searches.cuh"
#include "test_chain.hpp"

namespace test_chain {

void Game::cuda_level1_searches(uint64_t seed, State* states, const uint64_t* first_streams, uint32_t count,
                                int32_t device, void* stream, gsdk_level1_result* results, uint32_t* moves,
                                const uint32_t* stop) const {
  gsdk::nested::cuda_level1_searches(device_rules(), seed, states, first_streams, count, device, stream, results, moves,
                                     stop);
}

uint64_t Game::cuda_level2_scratch_bytes(uint32_t count) const {
  return gsdk::nested::cuda_level2_scratch_bytes(device_rules(), count);
}

void Game::cuda_level2_searches(uint64_t seed, const State* states, const uint64_t* search_streams, const uint64_t* ids,
                                uint32_t count, int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                                gsdk_level2_result* results, uint32_t* moves, uint32_t* record_moves,
                                const uint32_t* stop) const {
  gsdk::nested::cuda_level2_searches(device_rules(), seed, states, search_streams, ids, count, device, stream, scratch,
                                     scratch_size, results, moves, record_moves, stop);
}

uint64_t Game::cuda_nrpa_scratch_bytes(uint32_t count, uint32_t level) const {
  return gsdk::nested::cuda_nrpa_scratch_bytes(device_rules(), count, level);
}

void Game::cuda_nrpa_searches(uint64_t seed, uint32_t level, uint32_t iterations, double alpha, double* policies,
                              const uint64_t* first_streams, uint32_t count, int32_t device, void* stream,
                              void* scratch, uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                              const uint32_t* stop) const {
  gsdk::nested::cuda_nrpa_searches(device_rules(), seed, level, iterations, alpha, policies, first_streams, count,
                                   device, stream, scratch, scratch_size, results, moves, stop);
}

} // namespace test_chain
