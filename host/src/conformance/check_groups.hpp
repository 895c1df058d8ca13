// check_groups.hpp - the checks of each group, one source file per group; check_registry.cpp lists them.
#pragma once

#include <vector>

#include "conformance/check_registry.hpp"

namespace gsdk::host::conformance {

std::vector<CheckSpec> abi_checks();         // negotiation, table headers, parameter declarations
std::vector<CheckSpec> rules_checks();       // the per-state table over random games
std::vector<CheckSpec> playout_checks();     // batch and generic playouts, replay, the exact distribution
std::vector<CheckSpec> determinism_checks(); // results independent of thread counts and work splits
std::vector<CheckSpec> perft_checks();       // perft tables against the per-state rules
std::vector<CheckSpec> perft_key_checks();   // canonical states for hashed perft: idempotent, perft kept, CUDA
std::vector<CheckSpec> qlearning_checks();   // environment, trainers and pictures
std::vector<CheckSpec> nested_checks();      // move codes and the device NMCS/NRPA tables
std::vector<CheckSpec> cuda_checks();        // CUDA playouts and trainers against the CPU, bit for bit
std::vector<CheckSpec> observation_checks(); // observations: shape, fill, cuda_fill (vectorised environments)
std::vector<CheckSpec> batched_step_checks(); // batched steps against the generic per-state stepping

} // namespace gsdk::host::conformance
