// playouts.cu - snake's CUDA playouts: the SDK's playout template (gsdk/cuda/playout_tables.cuh) over snake's
// device rules (device_rules.hpp), the ones its GPU nested searches use: one thread per playout, each thread's
// blocked-vertex bitset in its slot of shared memory (2^d bits is too big for registers past d = 8 or so;
// Buzer and Cazenave measured shared memory as the only GPU memory with good latency for random reads and
// writes), interleaved as strided_bits.hpp lays it out.
#include "device_rules.hpp"
#include "gsdk/cuda/playout_tables.cuh"
#include "snake_game.hpp"

namespace snake {

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return gsdk::cuda::playout_scratch_bytes<cuda::DeviceRules>(score_range());
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  gsdk::cuda::playouts(cuda::device_rules(rules_, policy_), playout_start(request.start_state), score_range(), request,
                       device, stream, scratch, scratch_size, summary);
}

} // namespace snake
