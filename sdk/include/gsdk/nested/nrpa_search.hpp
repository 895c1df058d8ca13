// nrpa_search.hpp - one whole NRPA search, the routine the NRPA search kernel runs for each of its searches
// (gsdk.cuda_nrpa_searches.v1's contract): core's NRPA state machine in one thread. Its playouts move in the
// thread's workspace; its policies (the caller's for the top level, one copy per level below) and its sequences
// stay in memory the caller gives it. A sequence is kept as the game's step records (NrpaRules' Step), so
// adapting to it needs no replay. The arithmetic is gsdk/nrpa/policy_softmax.hpp's and the adaptation
// gsdk/nrpa/adaptation.hpp's, so a search finds on the GPU the sequence it finds on the CPU.
//
// A stop request (ABI 1.6) is read after each playout; it closes every open call as if its iterations were
// done, so the search ends with the best of its playouts so far. Host and device code: the tests also run it on
// the host.
#pragma once

#include <climits>
#include <cstdint>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/hd.hpp"
#include "gsdk/nested/nrpa_rules.hpp"
#include "gsdk/nested/stop_request.hpp"
#include "gsdk/nested/strided_words.hpp"
#include "gsdk/nrpa/adaptation.hpp"
#include "gsdk/nrpa/policy_softmax.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::nested {

inline constexpr uint32_t kMaxNrpaLevel = 16;

// What every search of one launch shares.
struct NrpaRun {
  uint32_t level;
  uint32_t iterations;
  double alpha;
  uint64_t seed;
  uint32_t code_count;
  uint32_t max_moves; // the stride of sequences: max_game_length()
};

// The memory of every search of a launch, search i's at index i: the policies (the caller's for the top level,
// code_count each; level - 1 copies below it), level + 1 sequences of max_moves steps, and, for games whose
// codes repeat along a sequence, the buffer of a deferred adaptation (deltas_per_search; else none). A search
// computes its addresses from these when it needs them rather than holding them in registers.
template <typename Step> struct NrpaBuffers {
  double* top_policies;
  double* lower_policies;
  Step* steps;
  uint32_t* delta_codes;
  double* delta_values;
  uint64_t deltas_per_search;
};

// Deltas per search a deferred adaptation may keep: every step's chosen code and legal moves.
template <NrpaRules R> GSDK_HD uint64_t deferred_deltas(const R& rules) {
  return R::kDistinctStepCodes ? 0 : uint64_t{rules.max_game_length()} * (R::kMaxMoves + 1);
}

// The deferred sink: keeps the deltas in order, to be added after the sequence's last step.
struct DeltaList {
  uint32_t* codes;
  double* values;
  uint32_t count;
  GSDK_HD void operator()(uint32_t code, double delta) {
    codes[count] = code;
    values[count] = delta;
    ++count;
  }
};

// The k-th move of a set, in legal_moves order.
template <typename Moves> GSDK_HD uint32_t nth_move(Moves moves, uint32_t k) {
  for (; k > 0; --k) moves = moves.without_first();
  return moves.first();
}

struct PlayoutEnd {
  uint32_t length;
  int64_t score;
};

// A policy playout from the initial state into `steps`.
template <NrpaRules R>
GSDK_HD PlayoutEnd policy_playout(const R& rules, const StridedWords& workspace, const double* policy, uint64_t seed,
                                  uint64_t stream, typename R::Step* steps) {
  auto position = rules.initial(workspace);
  rng::PhiloxStream random(seed, stream);
  uint32_t codes[R::kMaxMoves];
  double weights[R::kMaxMoves];
  uint32_t length = 0;
  for (auto legal = rules.legal_moves(position); !legal.empty(); legal = rules.legal_moves(position)) {
    uint32_t played = legal.first();
    const uint32_t n = rules.move_codes(position, legal, codes);
    if (n > 1) {
      const double total = nrpa::softmax_weights(policy, codes, n, weights);
      played = nth_move(legal, nrpa::softmax_pick(weights, n, total, random.uniform()));
    }
    steps[length++] = rules.step(position, legal, played);
    rules.play(position, played);
  }
  return {length, rules.score(position)};
}

// Rosin's adaptation of `policy` towards the sequence `steps` of `length` steps (gsdk/nrpa/adaptation.hpp).
template <NrpaRules R>
GSDK_HD void adapt(const R& rules, double alpha, double* policy, const typename R::Step* steps, uint32_t length,
                   uint32_t* delta_codes, double* delta_values) {
  uint32_t codes[R::kMaxMoves];
  double weights[R::kMaxMoves];
  if constexpr (R::kDistinctStepCodes) {
    const nrpa::AddToPolicy add{policy};
    for (uint32_t t = 0; t < length; ++t) {
      const uint32_t n = rules.step_codes(steps[t], codes);
      nrpa::step_deltas(policy, codes, n, rules.played_code(steps[t]), alpha, weights, add);
    }
  } else {
    DeltaList deltas{delta_codes, delta_values, 0};
    for (uint32_t t = 0; t < length; ++t) {
      const uint32_t n = rules.step_codes(steps[t], codes);
      nrpa::step_deltas(policy, codes, n, rules.played_code(steps[t]), alpha, weights, deltas);
    }
    for (uint32_t d = 0; d < deltas.count; ++d) policy[deltas.codes[d]] += deltas.values[d];
  }
}

// A search's levels: level l's best sequence lives in step buffer slot[l] (slot 0 is the playout being
// played), so taking a call's result as the best is a swap of slots, not a copy.
struct NrpaLevels {
  uint32_t slot[kMaxNrpaLevel + 1];
  uint32_t length[kMaxNrpaLevel + 1];
  int64_t score[kMaxNrpaLevel + 1];
  uint32_t iteration[kMaxNrpaLevel + 1];

  // Level l's call of level l - 1 returned its best sequence; a tie replaces the best, as in core's NRPA.
  GSDK_HD void take_call(uint32_t l) {
    if (score[l - 1] < score[l]) return;
    const uint32_t taken = slot[l - 1];
    slot[l - 1] = slot[l], slot[l] = taken;
    length[l] = length[l - 1], score[l] = score[l - 1];
  }
};

GSDK_HD void copy_policy(const double* from, double* to, uint32_t count) {
  for (uint32_t c = 0; c < count; ++c) to[c] = from[c];
}

// NRPA search `search` of a launch: of level run.level from its top policy, which it adapts; its n-th playout
// draws first_streams[search] + n; its best sequence's moves go to moves + search * run.max_moves.
template <NrpaRules R>
GSDK_HD gsdk_nrpa_result nrpa_search(const R& rules, const NrpaRun& run, const NrpaBuffers<typename R::Step>& buffers,
                                     uint64_t search, const StridedWords& workspace, const uint64_t* first_streams,
                                     uint32_t* moves, const uint32_t* stop) {
  const auto policy = [&](uint32_t l) {
    return l == run.level ? buffers.top_policies + search * run.code_count
                          : buffers.lower_policies + (search * (run.level - 1) + (l - 1)) * uint64_t{run.code_count};
  };
  const auto steps = [&](uint32_t buffer) {
    return buffers.steps + (search * (run.level + 1) + buffer) * uint64_t{run.max_moves};
  };
  NrpaLevels v;
  for (uint32_t l = 0; l <= run.level; ++l) v.slot[l] = l, v.length[l] = 0, v.score[l] = LLONG_MIN, v.iteration[l] = 0;
  // Opens the next call of level l - 1, down to level 1 (whose calls are playouts).
  const auto start_iteration = [&](uint32_t l) {
    for (; l > 1; --l) {
      copy_policy(policy(l), policy(l - 1), run.code_count);
      v.length[l - 1] = 0, v.score[l - 1] = LLONG_MIN, v.iteration[l - 1] = 0;
    }
  };
  start_iteration(run.level);
  uint64_t stream = first_streams[search];
  uint32_t stopped_after = 0; // playouts, when a stop request ended the search early
  for (bool done = false; !done;) {
    const PlayoutEnd playout = policy_playout(rules, workspace, policy(1), run.seed, stream++, steps(v.slot[0]));
    v.length[0] = playout.length;
    v.score[0] = playout.score;
    for (uint32_t l = 1;; ++l) { // level l's call of level l - 1 returned the sequence of level l - 1
      v.take_call(l);
      adapt(rules, run.alpha, policy(l), steps(v.slot[l]), v.length[l],
            buffers.delta_codes + search * buffers.deltas_per_search,
            buffers.delta_values + search * buffers.deltas_per_search);
      if (++v.iteration[l] < run.iterations) {
        start_iteration(l);
        break;
      }
      if (l == run.level) {
        done = true;
        break;
      }
    }
    if (!done && stop_requested(stop)) {
      // The calls opened since (reset to no sequence) return nothing better; the others return their best.
      for (uint32_t l = 2; l <= run.level; ++l)
        if (v.score[l - 1] != LLONG_MIN) v.take_call(l);
      const uint64_t ran = stream - first_streams[search];
      stopped_after = ran < UINT32_MAX ? static_cast<uint32_t>(ran) : UINT32_MAX;
      done = true;
    }
  }
  const typename R::Step* best = steps(v.slot[run.level]);
  for (uint32_t t = 0; t < v.length[run.level]; ++t) moves[search * run.max_moves + t] = rules.played_move(best[t]);
  return gsdk_nrpa_result{v.score[run.level], v.length[run.level], stopped_after};
}

} // namespace gsdk::nested
