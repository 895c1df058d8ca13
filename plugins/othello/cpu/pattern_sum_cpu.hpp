// pattern_sum_cpu.hpp - the pattern evaluation of rules/patterns.hpp on the host, equal to the bit to
// pattern_sum / pattern_evaluation with kPatternLayout, by pext where the processor has a fast one (else by the
// same digit loop). The plugin and tools/fit_evaluation call these; CUDA keeps the generic functions.
#pragma once

#include <cstdint>

#include "rules/position.hpp"

namespace othello {

// pattern_sum(p, kPatternLayout, weights): `weights` holds every stage, kEvaluationStages * stage_entries.
int32_t pattern_sum_cpu(const Position& p, const int16_t* weights);

// pattern_evaluation(p, kPatternLayout, weights): the sum bounded to gsdk.evaluation.v1's contract.
int32_t pattern_evaluation_cpu(const Position& p, const int16_t* weights);

} // namespace othello
