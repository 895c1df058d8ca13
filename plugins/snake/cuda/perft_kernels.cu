// perft_kernels.cu - snake's CUDA perft (gsdk.cuda_perft.v1) and canonical states (gsdk.perft_keys.v1's
// cuda_canonical): each member one call of an SDK template (gsdk/cuda/perft_tables.cuh over perft_rules.hpp,
// gsdk/cuda/map_states.cuh over rules/canonical.hpp), so the device plays and writes what the CPU does.
#include "gsdk/cuda/map_states.cuh"
#include "gsdk/cuda/perft_tables.cuh"
#include "perft_rules.hpp"
#include "rules/canonical.hpp"
#include "snake_game.hpp"

namespace snake {

namespace {

struct Canonicalize {
  GSDK_HD void operator()(State& s) const { canonicalize(s); }
};

} // namespace

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  gsdk::cuda::perft_count_leaves(cuda::PerftRules{{}, rules_}, states, count, plies, counts, stream);
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  gsdk::cuda::perft_generate_moves(cuda::PerftRules{{}, rules_}, states, count, offsets, moves, stream);
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  gsdk::cuda::perft_apply_moves(cuda::PerftRules{{}, rules_}, states, parents, moves, count, children, child_counts,
                                stream);
}

void Game::cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                               uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const {
  gsdk::cuda::perft_count_leaves_after_moves(cuda::PerftRules{{}, rules_}, states, parents, moves, count, plies, counts,
                                             stream);
}

void Game::cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const {
  gsdk::cuda::map_states(in, count, out, Canonicalize{}, stream, cuda::PerftRules::kOwner);
}

} // namespace snake
