// canonical_kernels.cu - chess_perft's canonical positions on the device (gsdk.perft_keys.v1's cuda_canonical): the
// SDK's per-state batch kernel over the rules' own canonicalize (rules/canonical.hpp), so the device writes the
// host's bytes.
#include "chess_game.hpp"
#include "gsdk/cuda/map_states.cuh"
#include "rules/canonical.hpp"

namespace chess {

namespace {

struct Canonicalize {
  GSDK_HD void operator()(Position& p) const { canonicalize(p); }
};

} // namespace

void Game::cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const {
  gsdk::cuda::map_states(in, count, out, Canonicalize{}, stream, "chess_perft");
}

} // namespace chess
