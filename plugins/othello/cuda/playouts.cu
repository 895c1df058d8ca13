// playouts.cu - othello's CUDA random playouts: the SDK's playout template (gsdk/cuda/playout_tables.cuh) over
// othello's device rules (device_rules.hpp), one thread per game with the whole game in registers, playing the
// stepped game (rules/stepped_game.hpp). It replaced a kernel of othello's own that was no faster: identical
// digests, 4.07e8 random playouts a second on one H200 either way (docs/perf/sdk_templates.md).
#include "device_rules.hpp"
#include "gsdk/cuda/playout_tables.cuh"
#include "othello_game.hpp"

namespace othello {

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return gsdk::cuda::playout_scratch_bytes<cuda::DeviceRules>(score_range());
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  const Position start = playout_start(request.start_state);
  // One position to solve: the host does it (a launch of one thread would be no faster).
  if (request.playout_count != 0 && exact_state(start)) return record_perfect_play(start, request, summary);
  gsdk::cuda::playouts(cuda::DeviceRules{{}, convention_, policy_}, start, score_range(), request, device, stream,
                       scratch, scratch_size, summary);
}

} // namespace othello
