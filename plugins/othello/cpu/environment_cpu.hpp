// environment_cpu.hpp - othello's vectorised environment on the CPU: one game's step (rules/environment.hpp, with
// its refusal of a bad action), and the AVX-512 loops that step and observe eight games to a vector (called only
// after avx512bw_available()). Both give the same bytes.
#pragma once

#include <cstdint>

#include "rules/position.hpp"

namespace othello::cpu {

// Steps game k of a batch and writes its outputs, and its final position to final_states[k] when it ends and
// final_states is not null; throws gsdk::PluginError naming it when its action is no legal move's code (the games
// before it stay stepped).
void step_game(Position* states, const uint32_t* actions, uint32_t k, Convention convention, float* rewards,
               uint8_t* terminated, int32_t* players, uint8_t* legal, Position* final_states);

// Whether this processor runs the AVX-512 loops (F, BW and BMI2).
bool avx512bw_available();

void step_batch_avx512(Position* states, const uint32_t* actions, uint32_t count, Convention convention,
                       float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal, Position* final_states);
void fill_observations_avx512(const Position* states, uint32_t count, uint8_t* observations);

} // namespace othello::cpu
