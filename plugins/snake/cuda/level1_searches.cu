// level1_searches.cu - whole level-1 NMCS searches on the GPU, one thread per search (the table
// gsdk.cuda_level1_searches.v1): the children's playouts run in the thread's bitset in shared memory
// (where every move of a playout reads and writes), the search's own snake stays in its state blob in
// global memory (read once per child, written once per step), which halves the shared memory a thread
// needs and so doubles the threads an SM holds in large cubes. The best sequence goes to global
// memory too. Each step plays one playout per
// non-terminal child, keeps the best child and, when it beats the best sequence, replays that child's
// playout to write its moves (the replay costs one playout per improvement instead of a move buffer per
// child). It follows core's CPU NMCS step for step, so both find the same snake for the same streams.
#include <cuda_runtime.h>

#include <climits>
#include <string>

#include "cuda_check.hpp"
#include "rules/random_snake.hpp"
#include "snake_game.hpp"
#include "strided_bits.cuh"

namespace snake {

namespace {

using cuda::StridedBits;

constexpr uint64_t kNoStream = ~uint64_t{0};

// Appends a replayed playout's moves to a best sequence.
struct SequenceLog {
  uint32_t* moves;
  uint32_t* count;
  GSDK_HD void operator()(uint32_t k) const { moves[(*count)++] = k; }
};

// The search's snake into the thread's bitset.
GSDK_HD void copy_bits(const uint64_t* from, const StridedBits& to, uint32_t words) {
  for (uint32_t w = 0; w < words; ++w) to.word0[w * to.stride] = static_cast<uint32_t>(from[w / 2] >> (32 * (w % 2)));
}

__global__ void level1_kernel(Rules rules, Policy policy, State* states, const uint64_t* first_streams,
                              uint32_t count, uint32_t words, uint32_t max_moves, uint64_t seed,
                              gsdk_level1_result* results, uint32_t* moves) {
  extern __shared__ uint32_t bitsets[];
  const StridedBits child{bitsets + threadIdx.x, blockDim.x};
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const WordBits snake{states[i].blocked};
    Walk walk = walk_of(states[i]);
    uint32_t* best = moves + i * max_moves;
    int64_t best_score = LLONG_MIN;
    uint32_t best_count = 0, played = 0;
    uint64_t next_stream = first_streams[i], playouts = 0;
    for (uint32_t legal = legal_dimensions(rules, snake, walk); legal != 0; legal = legal_dimensions(rules, snake, walk)) {
      int64_t step_score = LLONG_MIN;
      uint32_t step_move = 0;
      uint64_t step_stream = kNoStream;
      for (uint32_t rest = legal; rest; rest &= rest - 1) {
        const uint32_t k = lowest_bit(rest);
        copy_bits(snake.words, child, words);
        Walk w = walk;
        advance(rules, child, w, k);
        uint64_t stream = kNoStream;
        if (legal_dimensions(rules, child, w) != 0) {
          stream = next_stream++;
          ++playouts;
          random_snake(rules, policy, child, w, seed, stream);
        }
        if (static_cast<int64_t>(w.length) > step_score) {
          step_score = w.length;
          step_move = k;
          step_stream = stream;
        }
      }
      if (step_score > best_score) {
        best_score = step_score;
        best[played] = step_move;
        best_count = played + 1;
        if (step_stream != kNoStream) {
          copy_bits(snake.words, child, words);
          Walk w = walk;
          advance(rules, child, w, step_move);
          random_snake(rules, policy, child, w, seed, step_stream, SequenceLog{best, &best_count});
        }
      }
      advance(rules, snake, walk, best[played]);
      ++played;
    }
    if (best_score == LLONG_MIN) best_score = walk.length; // started at a dead end
    results[i] = gsdk_level1_result{best_score, playouts, best_count, 0};
  }
}

} // namespace

uint32_t Game::max_game_length() const {
  return length_bound(rules_.dimension);
}

void Game::cuda_level1_searches(uint64_t seed, State* states, const uint64_t* first_streams, uint32_t count,
                                int32_t device, void* stream_handle, gsdk_level1_result* results,
                                uint32_t* moves) const {
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const cuda::SearchBlock block = cuda::search_block(rules_.dimension);
  const unsigned blocks = gsdk::cuda::grid_size<level1_kernel>(device, static_cast<int>(block.threads), count,
                                                           block.shared_bytes, cuda::kOwner);
  level1_kernel<<<blocks, block.threads, block.shared_bytes, static_cast<cudaStream_t>(stream_handle)>>>(
      rules_, policy_, states, first_streams, count, block.words, max_game_length(), seed, results, moves);
  cuda::check(cudaGetLastError(), "launching the level-1 search kernel");
}

} // namespace snake
