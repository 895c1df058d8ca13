// battles_cuda.hpp - graveler's CUDA batch path (present when the plugin is built with CUDA).
#pragma once

#include <cstdint>

#include "../graveler_rules.hpp"
#include "gsdk/gsdk_plugin.h"

namespace graveler::cuda {

uint64_t scratch_bytes(int rolls);

// Battles [first, first + count) of `seed` on `device`/`stream`, folded into summary (scores offset
// by ones_offset). Throws gsdk::PluginError with GSDK_ERR_DEVICE on any CUDA failure.
void run_battles(const BattleLayout& layout, int ones_offset, uint64_t seed, uint64_t first, uint64_t count,
                 int32_t device, void* stream, void* scratch, uint64_t scratch_size, gsdk_playout_summary& summary);

} // namespace graveler::cuda
