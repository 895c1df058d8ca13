// vector_env_cuda.hpp - othello_vector_env's CUDA half (vector_env_cuda.cu); without CUDA it says so.
#pragma once

#include <cstdint>
#include <cstdio>

#include "vector_env_tables.hpp"

namespace othello::bench {

#if defined(GSDK_WITH_CUDA)
// `rounds` steps of `envs` games on GPU 0, each followed by an observation fill, timed with events.
void measure_cuda(const VectorEnvTables& tables, uint32_t envs, uint32_t rounds);
#else
inline void measure_cuda(const VectorEnvTables&, uint32_t, uint32_t) { std::printf("cuda: not built\n"); }
#endif

} // namespace othello::bench
