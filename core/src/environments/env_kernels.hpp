// env_kernels.hpp - the CUDA kernels of a VectorEnv itself (env_kernels.cu): action checks and random actions. The
// game's own steps come from its gsdk.batched_steps.v1 table. Every call enqueues on `stream` (a cudaStream_t) of
// the current device and throws std::runtime_error when the launch fails.
#pragma once

#include <cstdint>

namespace gsdk::core::env_kernels {

// *first_bad (device memory) = the lowest game k whose action is >= action_count or not set in its mask row, or
// UINT32_MAX when every action is legal.
void find_first_illegal(const uint32_t* actions, const uint8_t* legal, uint32_t count, uint32_t action_count,
                        uint32_t* first_bad, void* stream);

// codes[k] = env_streams::random_legal_code(seed, k, call, mask row k), the CPU's draw exactly.
void random_actions(uint64_t seed, uint64_t call, const uint8_t* legal, uint32_t count, uint32_t action_count,
                    uint32_t* codes, void* stream);

} // namespace gsdk::core::env_kernels
