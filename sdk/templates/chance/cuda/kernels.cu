// kernels.cu - coin_runs' CUDA table: CUDA playouts with their exact summary, the SDK's template
// (gsdk/cuda/playout_tables.cuh) over the game's device rules (device_rules.hpp), so the kernel plays exactly
// the playout of rules.hpp, as the CPU batch loop and replay do.
#include "device_rules.hpp"
#include "game.hpp"
#include "gsdk/cuda/playout_tables.cuh"

namespace coin_runs {

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return gsdk::cuda::playout_scratch_bytes<DeviceRules>(score_range());
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  gsdk::cuda::playouts(DeviceRules{{}, flips_}, checked_start(request.start_state), score_range(), request, device,
                       stream, scratch, scratch_size, summary);
}

} // namespace coin_runs
