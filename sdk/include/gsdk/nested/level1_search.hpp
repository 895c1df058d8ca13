// level1_search.hpp - one whole level-1 NMCS search, the routine the level-1 search kernel runs for each of
// its searches and the level-2 kernel for each child (gsdk.cuda_level1_searches.v1's contract). Each step plays
// one playout per non-terminal child in the thread's workspace, keeps the first best child and, when it beats
// the best sequence, replays that child's playout to write its moves (one playout per improvement instead of
// a move buffer per child). It follows core's CPU NMCS step for step, so both find the same sequence for the
// same streams. A stop request (ABI 1.6) ends it after the step in which it is read, with the best (complete)
// sequence found so far. Host and device code: the tests also run it on the host.
#pragma once

#include <climits>
#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nested/nmcs_rules.hpp"
#include "gsdk/nested/stop_request.hpp"
#include "gsdk/nested/strided_words.hpp"

namespace gsdk::nested {

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
  GSDK_HD void operator()(uint32_t move) const { moves[(*count)++] = move; }
};

// Level-1 NMCS from `search`, which it plays along as it goes; its n-th playout draws stream first_stream + n;
// its best sequence goes to best. A search from a terminal position scores it and plays nothing.
template <NmcsRules R>
GSDK_HD Level1Found level1_search(const R& rules, typename R::SearchPosition search, const StridedWords& workspace,
                                  uint64_t seed, uint64_t first_stream, uint32_t* best, const uint32_t* stop) {
  constexpr uint64_t kNoStream = ~uint64_t{0};
  int64_t best_score = LLONG_MIN;
  uint32_t best_count = 0, played = 0;
  uint64_t next_stream = first_stream, playouts = 0;
  for (auto legal = rules.legal_moves(search); !legal.empty(); legal = rules.legal_moves(search)) {
    const bool last_step = stop_requested(stop);
    int64_t step_score = LLONG_MIN;
    uint32_t step_move = 0;
    uint64_t step_stream = kNoStream;
    for (auto rest = legal; !rest.empty(); rest = rest.without_first()) {
      const uint32_t move = rest.first();
      auto child = rules.load(search, workspace);
      rules.play(child, move);
      uint64_t stream = kNoStream;
      if (!rules.legal_moves(child).empty()) {
        stream = next_stream++;
        ++playouts;
        rules.playout(child, seed, stream, NoMoveLog{});
      }
      const int64_t score = rules.score(child);
      if (score > step_score) {
        step_score = score;
        step_move = move;
        step_stream = stream;
      }
    }
    if (step_score > best_score) {
      best_score = step_score;
      best[played] = step_move;
      best_count = played + 1;
      if (step_stream != kNoStream) {
        auto child = rules.load(search, workspace);
        rules.play(child, step_move);
        rules.playout(child, seed, step_stream, SequenceLog{best, &best_count});
      }
    }
    if (last_step) break;
    rules.play(search, best[played]);
    ++played;
  }
  if (best_score == LLONG_MIN) best_score = rules.score(search); // started at a terminal position
  return {best_score, playouts, best_count};
}

} // namespace gsdk::nested
