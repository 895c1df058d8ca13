// level1_search.cuh - one whole level-1 NMCS search on one GPU thread, the routine both search kernels run
// (level-1 searches, and the children of level-2 searches). The children's playouts run in the thread's
// bitset in shared memory (where every move of a playout reads and writes); the search's own snake stays in
// global memory (read once per child, written once per step), which halves the shared memory a thread
// needs and so doubles the threads an SM holds in large cubes. Each step plays one playout per non-terminal
// child, keeps the first best child and, when it beats the best sequence, replays that child's playout to
// write its moves (one playout per improvement instead of a move buffer per child). It follows core's CPU
// NMCS step for step, so both find the same snake for the same streams. A stop request (ABI 1.6) ends it
// after the step in which it is read, with the best (complete) sequence found so far.
#pragma once

#include <climits>
#include <cstdint>

#include "gsdk/cuda/stop_request.cuh"
#include "rules/random_snake.hpp"
#include "strided_bits.cuh"

namespace snake::cuda {

// What a level-1 search found: its best sequence's score and length, and the playouts it ran.
struct Level1Found {
  int64_t score;
  uint64_t playouts;
  uint32_t move_count;
};

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

// Level-1 NMCS from (snake, walk), both updated as it plays; its n-th playout draws stream first_stream + n;
// its best sequence goes to best. A search from a terminal state scores its length and plays nothing.
__device__ inline Level1Found level1_search(const Rules& rules, Policy policy, const WordBits& snake, Walk walk,
                                            const StridedBits& child, uint32_t words, uint64_t seed,
                                            uint64_t first_stream, uint32_t* best, const uint32_t* stop) {
  constexpr uint64_t kNoStream = ~uint64_t{0};
  int64_t best_score = LLONG_MIN;
  uint32_t best_count = 0, played = 0;
  uint64_t next_stream = first_stream, playouts = 0;
  for (uint32_t legal = legal_dimensions(rules, snake, walk); legal != 0; legal = legal_dimensions(rules, snake, walk)) {
    const bool last_step = gsdk::cuda::stop_requested(stop);
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
    if (last_step) break;
    advance(rules, snake, walk, best[played]);
    ++played;
  }
  if (best_score == LLONG_MIN) best_score = walk.length; // started at a dead end
  return {best_score, playouts, best_count};
}

} // namespace snake::cuda
