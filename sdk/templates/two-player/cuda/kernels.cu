// kernels.cu - connect_four's CUDA tables: each member binds an SDK template (gsdk/cuda/) over the game's device
// rules (device_rules.hpp), so the kernels play exactly the rules of rules.hpp, as the CPU paths do.
//   cuda_playouts         one start state, one thread per playout, an exact summary (playout_tables.cuh)
//   cuda_playout_batches  many start states in one launch, for tree search on a GPU (playout_tables.cuh)
//   cuda_perft_*          the kernels of gsdk's breadth-first GPU perft, the last two plies counted in place
//                         (perft_tables.cuh)
//   cuda_*_batch, cuda_fill_observations  gsdk.VectorEnv on a GPU: one thread per game (environment_tables.cuh)
// A game may replace any of these with a kernel of its own where it measures faster (gsdk's Othello keeps its own
// environment kernel, 2.5-4% faster); the members' signatures stay the same.
#include "device_rules.hpp"
#include "game.hpp"
#include "gsdk/cuda/environment_tables.cuh"
#include "gsdk/cuda/perft_tables.cuh"
#include "gsdk/cuda/playout_tables.cuh"

namespace connect_four {

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return gsdk::cuda::playout_scratch_bytes<DeviceRules>(score_range());
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  gsdk::cuda::playouts(DeviceRules{}, checked_start(request.start_state), score_range(), request, device, stream,
                       scratch, scratch_size, summary);
}

void Game::cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                uint32_t playouts_per_state, int32_t device, void* stream,
                                gsdk_outcome_counts* outcomes) const {
  gsdk::cuda::playout_batches(DeviceRules{}, seed, first_playout, states, count, playouts_per_state, device, stream,
                              outcomes);
}

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  gsdk::cuda::perft_count_leaves(DeviceRules{}, states, count, plies, counts, stream);
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  gsdk::cuda::perft_generate_moves(DeviceRules{}, states, count, offsets, moves, stream);
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  gsdk::cuda::perft_apply_moves(DeviceRules{}, states, parents, moves, count, children, child_counts, stream);
}

void Game::cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                               uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const {
  gsdk::cuda::perft_count_leaves_after_moves(DeviceRules{}, states, parents, moves, count, plies, counts, stream);
}

void Game::cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const {
  gsdk::cuda::fill_observations(DeviceRules{}, states, count, device, stream, out);
}

void Game::cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
                           float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                           State* final_states) const {
  gsdk::cuda::step_batch(DeviceRules{}, states, actions, count, device, stream, rewards, terminated, players, legal,
                         final_states);
}

void Game::cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
                            uint8_t* legal) const {
  gsdk::cuda::reset_batch(DeviceRules{}, states, count, device, stream, players, legal);
}

} // namespace connect_four
