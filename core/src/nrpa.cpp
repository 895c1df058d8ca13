// nrpa.cpp - Nested Rollout Policy Adaptation (Rosin 2011) as a state machine per search, so that the
// policy playouts of searches side by side run as one batch on the CPU threads.
//
// NRPA(level, policy): level 0 plays a playout choosing each move with probability proportional to
// exp(policy[code(move)]). Level l runs NRPA(l - 1, a copy of policy) `iterations` times, keeps the best
// sequence (a tie replaces it, as in Rosin's pseudocode) and after each call adapts its policy towards the
// best sequence: along it, the chosen move's weight gains alpha and every legal move's weight loses alpha
// times its probability under the policy before the adaptation.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "batch_split.hpp"
#include "gsdk/core/nested_search.hpp"
#include "gsdk/rng/philox.hpp"
#include "side_by_side_searches.hpp"

namespace gsdk::core {

namespace {

constexpr uint64_t kStreamsPerSearch = uint64_t{1} << 40;
// The policy is a flat array of weights, one per code; past this many codes it would not fit in memory
// comfortably (and a hash map of the codes seen would be the way).
constexpr uint32_t kMaxCodes = 1u << 26;

// A policy playout calls the per-state table at every step: a few of them pay for starting a thread.
constexpr size_t kMinPolicyPlayoutsPerThread = 4;

using Policy = std::vector<double>;

// A finished policy playout with what adaptation needs: at step t the legal moves' codes are
// codes[offsets[t] .. offsets[t + 1]) and the one played is chosen[t].
struct PolicySequence {
  MoveSequence sequence;
  std::vector<uint32_t> codes;
  std::vector<uint32_t> offsets{0};
  std::vector<uint32_t> chosen;
};

// weights[k] = exp(policy[codes[k]] - the largest of them) for k < n (shifted so none overflows);
// returns their sum, so weights[k] / sum is move k's probability under the policy.
double softmax_weights(const Policy& policy, const uint32_t* codes, uint32_t n, double* weights) {
  double largest = -INFINITY;
  for (uint32_t k = 0; k < n; ++k) largest = std::max(largest, policy[codes[k]]);
  double total = 0;
  for (uint32_t k = 0; k < n; ++k) total += weights[k] = std::exp(policy[codes[k]] - largest);
  return total;
}

PolicySequence policy_playout(const GameInstance& game, const gsdk_move_codes& table, const Policy& policy,
                              uint64_t seed, uint64_t stream) {
  rng::PhiloxStream random(seed, stream);
  PolicySequence out;
  StateBlob state = game.initial_state();
  std::vector<uint32_t> legal(game.max_moves());
  std::vector<double> weights(game.max_moves());
  for (;;) {
    const int32_t player = game.current_player(state);
    if (player == GSDK_PLAYER_TERMINAL) break;
    const uint32_t n = game.checked_legal_moves(state, legal);
    if (n == 0)
      throw std::runtime_error(fmt::format("game '{}' has no legal move in a non-terminal state", game.game().name));
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t code = table.move_code(game.handle(), state.data(), legal[k]);
      if (code >= policy.size())
        throw std::runtime_error(fmt::format("game '{}': move code {} is not below code_count {}", game.game().name,
                                             code, policy.size()));
      out.codes.push_back(code);
    }
    const uint32_t* codes = out.codes.data() + out.offsets.back();
    const double total = softmax_weights(policy, codes, n, weights.data());
    double u = random.uniform() * total;
    uint32_t pick = n - 1;
    for (uint32_t k = 0; k < n; ++k) {
      if (u < weights[k]) {
        pick = k;
        break;
      }
      u -= weights[k];
    }
    out.offsets.push_back(static_cast<uint32_t>(out.codes.size()));
    out.chosen.push_back(codes[pick]);
    out.sequence.moves.push_back(legal[pick]);
    game.apply_move(state, legal[pick]);
  }
  out.sequence.score = game.score(state);
  return out;
}

// Rosin's adapt: every delta is computed from the policy before the adaptation, then applied.
void adapt(Policy& policy, const PolicySequence& best, double alpha, std::vector<std::pair<uint32_t, double>>& deltas,
           std::vector<double>& weights) {
  deltas.clear();
  for (size_t t = 0; t < best.chosen.size(); ++t) {
    const uint32_t begin = best.offsets[t], n = best.offsets[t + 1] - begin;
    weights.resize(std::max<size_t>(weights.size(), n));
    const double total = softmax_weights(policy, best.codes.data() + begin, n, weights.data());
    deltas.emplace_back(best.chosen[t], alpha);
    for (uint32_t k = 0; k < n; ++k) deltas.emplace_back(best.codes[begin + k], -alpha * weights[k] / total);
  }
  for (const auto& [code, delta] : deltas) policy[code] += delta;
}

// One NRPA search as a state machine: levels_[l] is the running NRPA(l) call (l = 1 .. level).
class NrpaSearch {
public:
  NrpaSearch(const NrpaSettings& settings, uint32_t code_count, SearchRecord& record, uint32_t search)
      : settings_(settings), record_(record), search_(search), next_stream_(search * kStreamsPerSearch),
        levels_(settings.level + 1) {
    levels_[settings.level].policy.assign(code_count, 0.0);
    start_iteration(settings.level);
  }

  bool done() const { return done_; }
  const Policy& playout_policy() const { return levels_[1].policy; }
  uint64_t take_stream() { return next_stream_++; }

  void deliver(PolicySequence playout) {
    if (record_.beaten_by(playout.sequence.score)) record_.improve(search_, playout.sequence);
    complete(1, std::move(playout));
  }

private:
  struct Level {
    Policy policy;
    PolicySequence best;
    uint32_t iteration = 0;
  };

  // Level l's current call of level l - 1 returned `result`.
  void complete(uint32_t l, PolicySequence result) {
    for (;;) {
      Level& level = levels_[l];
      if (level.best.sequence.empty() || result.sequence.score >= level.best.sequence.score)
        level.best = std::move(result);
      adapt(level.policy, level.best, settings_.alpha, deltas_, weights_);
      if (++level.iteration < settings_.iterations) {
        start_iteration(l);
        return;
      }
      if (l == settings_.level) {
        done_ = true;
        return;
      }
      result = std::move(level.best);
      ++l;
    }
  }

  // Opens the next call of level l - 1 (down to level 1, whose calls are playouts).
  void start_iteration(uint32_t l) {
    for (; l > 1; --l) levels_[l - 1] = Level{levels_[l].policy, {}, 0};
  }

  const NrpaSettings& settings_;
  SearchRecord& record_;
  uint32_t search_;
  uint64_t next_stream_;
  std::vector<Level> levels_;
  std::vector<std::pair<uint32_t, double>> deltas_;
  std::vector<double> weights_; // adapt's scratch
  bool done_ = false;
};

} // namespace

NestedSearchOutcome run_nrpa(const GameInstance& game, const NrpaSettings& settings, const ImprovementFn& on_improvement) {
  require_one_player_game(game, "NRPA");
  if (settings.level < 1) throw std::invalid_argument("NRPA level must be at least 1");
  if (settings.iterations < 1) throw std::invalid_argument("NRPA needs at least 1 iteration per level");
  const gsdk_move_codes* table = game.tables().move_codes;
  if (!table)
    throw std::invalid_argument(fmt::format("NRPA needs move codes for its policy, and game '{}' has no '{}' table",
                                            game.game().name, GSDK_TABLE_MOVE_CODES));
  const uint32_t code_count = table->code_count(game.handle());
  if (code_count == 0 || code_count > kMaxCodes)
    throw std::invalid_argument(fmt::format("game '{}' declares {} move codes; NRPA handles 1 .. {}", game.game().name,
                                            code_count, kMaxCodes));
  NestedSearchOutcome outcome;
  outcome.engine = "policy";
  const unsigned threads = std::max(settings.threads, 1u);
  outcome.device = fmt::format("cpu, {} thread{} (policy playouts through the per-state table)", threads,
                               threads == 1 ? "" : "s");
  SearchRecord record(on_improvement);
  const auto make = [&](uint32_t k) { return std::make_unique<NrpaSearch>(settings, code_count, record, k); };
  std::vector<PolicySequence> playouts;
  std::vector<uint64_t> streams;
  const auto play_round = [&](std::vector<NrpaSearch*>& round) {
    streams.clear();
    for (NrpaSearch* s : round) streams.push_back(s->take_stream());
    playouts.assign(round.size(), {});
    split_batch(threads, round.size(), kMinPolicyPlayoutsPerThread, [&](unsigned, size_t i) {
      playouts[i] = policy_playout(game, *table, round[i]->playout_policy(), settings.seed, streams[i]);
    });
    outcome.playouts += round.size();
    for (size_t i = 0; i < round.size(); ++i) round[i]->deliver(std::move(playouts[i]));
  };
  run_side_by_side<NrpaSearch>(settings.budget, record, outcome, make, play_round);
  return outcome;
}

} // namespace gsdk::core
