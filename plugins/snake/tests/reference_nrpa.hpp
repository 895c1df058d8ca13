// reference_nrpa.hpp - NRPA written as Rosin's recursive pseudocode over the per-state table, with the
// SDK's arithmetic (gsdk/nrpa/policy_softmax.hpp, adaptation.hpp): the oracle that core's state machine and the CUDA
// kernel must match sequence for sequence.
#pragma once

#include <cstdint>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/nrpa/adaptation.hpp"
#include "gsdk/nrpa/policy_softmax.hpp"
#include "gsdk/rng/philox.hpp"

namespace snake::test {

struct ReferenceSequence {
  int64_t score = 0;
  std::vector<uint32_t> moves;
  std::vector<std::vector<uint32_t>> codes; // per step, the legal moves' codes
  std::vector<uint32_t> chosen;             // per step, the code played
};

class ReferenceNrpa {
public:
  ReferenceNrpa(const gsdk::core::GameInstance& game, uint64_t seed, uint32_t iterations, double alpha)
      : game_(game), codes_(*game.tables().move_codes), seed_(seed), iterations_(iterations), alpha_(alpha) {}

  // NRPA(level, policy) whose playouts draw the streams next_stream, next_stream + 1, ...
  ReferenceSequence search(uint32_t level, std::vector<double> policy, uint64_t& next_stream) const {
    if (level == 0) return playout(policy, next_stream++);
    ReferenceSequence best;
    for (uint32_t i = 0; i < iterations_; ++i) {
      ReferenceSequence found = search(level - 1, policy, next_stream);
      if (i == 0 || found.score >= best.score) best = std::move(found);
      adapt(policy, best);
    }
    return best;
  }

private:
  ReferenceSequence playout(const std::vector<double>& policy, uint64_t stream) const {
    gsdk::rng::PhiloxStream random(seed_, stream);
    ReferenceSequence out;
    gsdk::core::StateBlob state = game_.initial_state();
    std::vector<uint32_t> legal(game_.max_moves());
    std::vector<double> weights(game_.max_moves());
    while (game_.current_player(state) != GSDK_PLAYER_TERMINAL) {
      const uint32_t n = game_.checked_legal_moves(state, legal);
      std::vector<uint32_t> codes;
      for (uint32_t k = 0; k < n; ++k) codes.push_back(codes_.move_code(game_.handle(), state.data(), legal[k]));
      uint32_t pick = 0;
      if (n > 1) {
        const double total = gsdk::nrpa::softmax_weights(policy.data(), codes.data(), n, weights.data());
        pick = gsdk::nrpa::softmax_pick(weights.data(), n, total, random.uniform());
      }
      out.chosen.push_back(codes[pick]);
      out.codes.push_back(std::move(codes));
      out.moves.push_back(legal[pick]);
      game_.apply_move(state, legal[pick]);
    }
    out.score = game_.score(state);
    return out;
  }

  // Rosin's adapt (gsdk/nrpa/adaptation.hpp): the deltas, all computed from the old policy, go to a copy.
  void adapt(std::vector<double>& policy, const ReferenceSequence& best) const {
    std::vector<double> adapted = policy;
    std::vector<double> weights(game_.max_moves());
    for (size_t t = 0; t < best.codes.size(); ++t) {
      const std::vector<uint32_t>& codes = best.codes[t];
      gsdk::nrpa::step_deltas(policy.data(), codes.data(), static_cast<uint32_t>(codes.size()), best.chosen[t], alpha_,
                              weights.data(), gsdk::nrpa::AddToPolicy{adapted.data()});
    }
    policy = std::move(adapted);
  }

  const gsdk::core::GameInstance& game_;
  const gsdk_move_codes& codes_;
  uint64_t seed_;
  uint32_t iterations_;
  double alpha_;
};

// The best of `searches` level-`level` searches from zero policies, search k on the streams k * 2^40 + n:
// the highest score, the lowest search among equals (what core's run keeps).
struct ReferenceRun {
  ReferenceSequence best;
  uint32_t search = 0;
};

inline ReferenceRun reference_run(const ReferenceNrpa& nrpa, uint32_t code_count, uint32_t level, uint32_t searches) {
  ReferenceRun run;
  for (uint32_t k = 0; k < searches; ++k) {
    uint64_t stream = uint64_t{k} << 40;
    ReferenceSequence found = nrpa.search(level, std::vector<double>(code_count, 0.0), stream);
    if (k == 0 || found.score > run.best.score) run = {std::move(found), k};
  }
  return run;
}

} // namespace snake::test
