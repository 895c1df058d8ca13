// level2_search.hpp - one whole level-2 NMCS search, the routine the level-2 search kernel runs for each of its
// searches (gsdk.cuda_level2_searches.v1's contract), so that the host hands out one search where it handed out
// a level-1 search per child and step. It runs core's level-2 frame: at each step a level-1 search
// (level1_search.hpp) after every legal move, from a copy of the search's position, on the streams core's
// frames would give that child; it keeps the first best child's sequence, follows the best sequence, and keeps
// beside it the sequence the run's record would end with (the smallest of the best score's). Positions and
// sequences live in scratch (global memory); playouts in the thread's workspace. A stop request (ABI 1.6),
// read after each child, ends the search there: the children searched so far are its last step. The children's
// level-1 searches do not read it: compiled without the poll, snake's kernel runs a quarter faster, while a
// child search lasts a second or two at most in the cubes measured (docs/perf/snake.md, stop 18).
#pragma once

#include <climits>
#include <cstdint>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/hd.hpp"
#include "gsdk/nested/level1_search.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/stop_request.hpp"
#include "gsdk/nested/strided_words.hpp"

namespace gsdk::nested {

inline constexpr uint64_t kChildIds = 1024; // core: a child's id is its parent's times this plus its number
inline constexpr uint64_t kStreamsPerLevel1 = uint64_t{1} << 20;

// Core's block of a level-1 search: its id's 20-bit digits folded together.
GSDK_HD uint64_t level1_block(uint64_t id) {
  uint64_t block = 0;
  for (; id != 0; id >>= 20) block ^= id & (kStreamsPerLevel1 - 1);
  return block;
}

// Is played[0..n) + move + tail[0..tail_count) lexicographically smaller than other[0..other_count)?
GSDK_HD bool smaller_sequence(const uint32_t* played, uint32_t n, uint32_t move, const uint32_t* tail,
                              uint32_t tail_count, const uint32_t* other, uint32_t other_count) {
  const uint32_t count = n + 1 + tail_count;
  for (uint32_t t = 0; t < count && t < other_count; ++t) {
    const uint32_t m = t < n ? played[t] : t == n ? move : tail[t - n - 1];
    if (m != other[t]) return m < other[t];
  }
  return count < other_count;
}

// One search's scratch: two positions of search_words() words, two sequences of max_game_length() moves.
struct Level2Scratch {
  uint64_t* position;   // the search's position
  uint64_t* child;      // a child's position
  uint32_t* child_best; // the sequence of the child being searched
  uint32_t* step_best;  // the sequence of the step's first best child
};

// Level-2 NMCS from `start`: its children's ids are *id * 1024 + 0, 1, ... and draw their playouts from
// *first_stream + level1_block(child id) * 2^20 + n. Its best sequence goes to best, the record's to record.
// The search's stream and id are read from memory at each child rather than held in registers throughout
// (snake's kernel: 80 registers instead of 96).
template <NmcsRules R>
GSDK_HD gsdk_level2_result level2_search(const R& rules, const typename R::State& start, const uint64_t* first_stream,
                                         const uint64_t* id, Level2Scratch b, const StridedWords& workspace,
                                         uint64_t seed, uint32_t* best, uint32_t* record, const uint32_t* stop) {
  auto search = rules.copy_state(start, b.position);
  int64_t best_score = LLONG_MIN, record_score = LLONG_MIN;
  uint32_t best_count = 0, record_count = 0, played = 0;
  uint64_t playouts = 0, level1_searches = 0, level1_steps = 0, children = 0;
  bool stopped = false;
  for (auto legal = rules.legal_moves(search); !legal.empty(); legal = rules.legal_moves(search)) {
    int64_t step_score = LLONG_MIN;
    uint32_t step_move = 0, step_count = 0;
    for (auto rest = legal; !rest.empty() && !stopped; rest = rest.without_first()) {
      const uint32_t move = rest.first();
      auto child = rules.copy_position(search, b.child);
      rules.play(child, move);
      const uint64_t first = *first_stream + level1_block(*id * kChildIds + children++) * kStreamsPerLevel1;
      const Level1Found found = level1_search(rules, child, workspace, seed, first, b.child_best, nullptr);
      ++level1_searches;
      playouts += found.playouts;
      level1_steps += found.move_count;
      if (found.score > step_score) {
        step_score = found.score;
        step_move = move;
        step_count = found.move_count;
        uint32_t* kept = b.step_best;
        b.step_best = b.child_best, b.child_best = kept;
      }
      stopped = stop_requested(stop);
    }
    // best[0..played) are the moves played so far, whatever the best sequence becomes below.
    if (step_score > record_score ||
        (step_score == record_score &&
         smaller_sequence(best, played, step_move, b.step_best, step_count, record, record_count))) {
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
    rules.play(search, best[played]);
    ++played;
  }
  if (best_score == LLONG_MIN) best_score = rules.score(search); // started at a terminal position
  return gsdk_level2_result{best_score, playouts, level1_searches, level1_steps, best_count, record_count};
}

} // namespace gsdk::nested
