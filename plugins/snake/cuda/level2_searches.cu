// level2_searches.cu - whole level-2 NMCS searches on the GPU, one thread (or warp) per search (the table
// gsdk.cuda_level2_searches.v1), so that the host hands out one search where it handed out a level-1 search
// per child and step. The thread runs core's level-2 frame: at each step a level-1 search
// (level1_search.cuh) after every legal move, from a copy of the search's snake, on the streams core's
// frames would give that child; it keeps the first best child's sequence, follows the best sequence, and
// keeps beside it the sequence the run's record would end with (the smallest of the best score's).
// Snakes and sequences live in scratch (global memory); playouts in the thread's bitset in shared memory.
// A stop request (ABI 1.6), read after each child, ends the search there: the children searched so far are
// its last step. The children's level-1 searches do not read it: compiled without the poll, the kernel runs a
// quarter faster (d = 8: 1.31e9 playouts/s against 1.06e9 before stop requests and 8.7e8 polling every
// level-1 step), while a child search lasts at most a second or two in the cubes measured (d <= 10).
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.hpp"
#include "level1_search.cuh"
#include "snake_game.hpp"

namespace snake {

namespace {

constexpr uint64_t kChildIds = 1024;                  // core: a child's id is its parent's times this plus its number
constexpr uint64_t kStreamsPerLevel1 = uint64_t{1} << 20;

// Core's block of a level-1 search: its id's 20-bit digits folded together.
__device__ uint64_t block_of(uint64_t id) {
  uint64_t block = 0;
  for (; id != 0; id >>= 20) block ^= id & (kStreamsPerLevel1 - 1);
  return block;
}

// Is played[0..n) + k + tail[0..tail_count) lexicographically smaller than other[0..other_count)?
__device__ bool smaller(const uint32_t* played, uint32_t n, uint32_t k, const uint32_t* tail, uint32_t tail_count,
                        const uint32_t* other, uint32_t other_count) {
  const uint32_t count = n + 1 + tail_count;
  for (uint32_t t = 0; t < count && t < other_count; ++t) {
    const uint32_t move = t < n ? played[t] : t == n ? k : tail[t - n - 1];
    if (move != other[t]) return move < other[t];
  }
  return count < other_count;
}

struct Buffers {
  uint64_t* snake;      // the search's snake (words64 words)
  uint64_t* child;      // a child's snake
  uint32_t* child_best; // the child being searched
  uint32_t* step_best;  // the step's first best child
};

template <bool PerWarp>
__global__ void level2_kernel(Rules rules, Policy policy, const State* states,
                              const uint64_t* search_streams, const uint64_t* ids, uint32_t count, uint32_t words32,
                              uint32_t words64, uint32_t max_moves, uint64_t seed, uint64_t* snakes,
                              uint32_t* sequences, gsdk_level2_result* results, uint32_t* moves,
                              uint32_t* record_moves, const uint32_t* stop) {
  extern __shared__ uint32_t bitsets[];
  using Slots = cuda::SearchSlots<PerWarp>;
  if (Slots::idle()) return;
  const cuda::StridedBits playout = Slots::bits(bitsets);
  for (uint64_t i = Slots::first(); i < count; i += Slots::stride()) {
    Buffers b{snakes + 2 * i * words64, snakes + (2 * i + 1) * words64, sequences + 2 * i * max_moves,
              sequences + (2 * i + 1) * max_moves};
    for (uint32_t w = 0; w < words64; ++w) b.snake[w] = states[i].blocked[w];
    const WordBits snake{b.snake};
    Walk walk = walk_of(states[i]);
    uint32_t* best = moves + i * max_moves;
    uint32_t* record = record_moves + i * max_moves;
    int64_t best_score = LLONG_MIN, record_score = LLONG_MIN;
    uint32_t best_count = 0, record_count = 0, played = 0;
    uint64_t playouts = 0, level1_searches = 0, level1_steps = 0, children = 0;
    bool stopped = false;
    for (uint32_t legal = legal_dimensions(rules, snake, walk); legal != 0; legal = legal_dimensions(rules, snake, walk)) {
      int64_t step_score = LLONG_MIN;
      uint32_t step_move = 0, step_count = 0;
      for (uint32_t rest = legal; rest && !stopped; rest &= rest - 1) {
        const uint32_t k = lowest_bit(rest);
        for (uint32_t w = 0; w < words64; ++w) b.child[w] = b.snake[w];
        Walk w = walk;
        advance(rules, WordBits{b.child}, w, k);
        const uint64_t first = search_streams[i] + block_of(ids[i] * kChildIds + children++) * kStreamsPerLevel1;
        const cuda::Level1Found found =
            cuda::level1_search(rules, policy, WordBits{b.child}, w, playout, words32, seed, first, b.child_best, nullptr);
        ++level1_searches;
        playouts += found.playouts;
        level1_steps += found.move_count;
        if (found.score > step_score) {
          step_score = found.score;
          step_move = k;
          step_count = found.move_count;
          uint32_t* kept = b.step_best;
          b.step_best = b.child_best, b.child_best = kept;
        }
        stopped = gsdk::cuda::stop_requested(stop);
      }
      // best[0..played) are the moves played so far, whatever the best sequence becomes below.
      if (step_score > record_score ||
          (step_score == record_score && smaller(best, played, step_move, b.step_best, step_count, record, record_count))) {
        for (uint32_t t = 0; t < played; ++t) record[t] = best[t];
        record[played] = step_move;
        for (uint32_t t = 0; t < step_count; ++t) record[played + 1 + t] = b.step_best[t];
        record_count = played + 1 + step_count;
        record_score = step_score;
      }
      if (step_score > best_score) {
        best_score = step_score;
        best[played] = step_move;
        for (uint32_t t = 0; t < step_count; ++t) best[played + 1 + t] = b.step_best[t];
        best_count = played + 1 + step_count;
      }
      if (stopped) break;
      advance(rules, snake, walk, best[played]);
      ++played;
    }
    if (best_score == LLONG_MIN) best_score = record_score = walk.length; // started at a dead end
    results[i] = gsdk_level2_result{best_score, playouts, level1_searches, level1_steps, best_count, record_count};
  }
}

} // namespace

uint64_t Game::cuda_level2_scratch_bytes(uint32_t count) const {
  return uint64_t{count} * (2 * words64(rules_.dimension) * sizeof(uint64_t) + 2 * max_game_length() * sizeof(uint32_t));
}

void Game::cuda_level2_searches(uint64_t seed, const State* states, const uint64_t* search_streams, const uint64_t* ids,
                                uint32_t count, int32_t device, void* stream_handle, void* scratch,
                                uint64_t scratch_size, gsdk_level2_result* results, uint32_t* moves,
                                uint32_t* record_moves, const uint32_t* stop) const {
  if (scratch_size < cuda_level2_scratch_bytes(count))
    throw gsdk::PluginError("level-2 searches on the GPU: scratch of " + std::to_string(scratch_size) + " bytes, " +
                            std::to_string(cuda_level2_scratch_bytes(count)) + " needed");
  if (count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const auto launch = cuda::search_launch<level2_kernel<true>, level2_kernel<false>>(rules_.dimension, count, device, cuda::kOwner);
  const uint32_t words = words64(rules_.dimension);
  auto* snakes = static_cast<uint64_t*>(scratch);
  auto* sequences = reinterpret_cast<uint32_t*>(snakes + uint64_t{count} * 2 * words);
  launch.kernel<<<launch.blocks, launch.threads, launch.shared_bytes, static_cast<cudaStream_t>(stream_handle)>>>(
      rules_, policy_, states, search_streams, ids, count, cuda::words32(rules_.dimension), words,
      max_game_length(), seed, snakes, sequences, results, moves, record_moves, stop);
  cuda::check(cudaGetLastError(), "launching the level-2 search kernel");
}

} // namespace snake
