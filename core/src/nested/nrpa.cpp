// nrpa.cpp - Nested Rollout Policy Adaptation (Rosin 2011) as a state machine per search, so that the
// policy playouts of searches side by side run as one batch on the CPU threads, or, with a device
// searcher, so that their calls of the device's level run as one launch.
//
// NRPA(level, policy): level 0 plays a playout choosing each move with probability proportional to
// exp(policy[code(move)]). Level l runs NRPA(l - 1, a copy of policy) `iterations` times, keeps the best
// sequence (a tie replaces it, as in Rosin's pseudocode) and after each call adapts its policy towards the
// best sequence: along it, the chosen move's weight gains alpha and every legal move's weight loses alpha
// times its probability under the policy before the adaptation. The arithmetic is
// gsdk/nrpa/policy_softmax.hpp's, which a device kernel repeats bit for bit; a state with one legal move
// draws no random number and adapts nothing (its weights cannot change a choice).
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/nrpa/adaptation.hpp"
#include "gsdk/nrpa/policy_softmax.hpp"
#include "gsdk/rng/philox.hpp"
#include "nested/side_by_side_searches.hpp"
#include "nested/stop_request_watch.hpp"
#include "runtime/batch_split.hpp"

namespace gsdk::core {

namespace {

constexpr uint64_t kStreamsPerSearch = uint64_t{1} << 40;
// The policy is a flat array of weights, one per code; past this many codes it would not fit in memory
// comfortably (and a hash map of the codes seen would be the way).
constexpr uint32_t kMaxCodes = 1u << 26;

// A policy playout calls the per-state table at every step: a few of them pay for starting a thread.
constexpr size_t kMinPolicyPlayoutsPerThread = 4;
// Delivering a device's result replays its sequence through the per-state table and adapts a policy.
constexpr size_t kMinDeliveriesPerThread = 16;

using Policy = std::vector<double>;

// A sequence with what adaptation needs: at step t the legal moves' codes are
// codes[offsets[t] .. offsets[t + 1]) and the one played is chosen[t].
struct PolicySequence {
  MoveSequence sequence;
  std::vector<uint32_t> codes;
  std::vector<uint32_t> offsets{0};
  std::vector<uint32_t> chosen;
};

// Plays from the initial state, each move from `choose(codes, n)` (an index into the n legal moves), and
// records the codes along the way.
// Appends the codes of the n legal moves `legal` of `state`, each checked to be below code_count.
void append_codes(const GameInstance& game, const gsdk_move_codes& table, uint32_t code_count, const StateBlob& state,
                  const uint32_t* legal, uint32_t n, std::vector<uint32_t>& codes) {
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t code = table.move_code(game.handle(), state.data(), legal[k]);
    if (code >= code_count)
      throw std::runtime_error(
          fmt::format("game '{}': move code {} is not below code_count {}", game.game().name, code, code_count));
    codes.push_back(code);
  }
}

template <typename Choose>
PolicySequence play_recording_codes(const GameInstance& game, const gsdk_move_codes& table, uint32_t code_count,
                                    Choose&& choose) {
  PolicySequence out;
  StateBlob state = game.initial_state();
  std::vector<uint32_t> legal(game.max_moves());
  for (;;) {
    const int32_t player = game.current_player(state);
    if (player == GSDK_PLAYER_TERMINAL) break;
    const uint32_t n = game.checked_legal_moves(state, legal);
    if (n == 0)
      throw std::runtime_error(fmt::format("game '{}' has no legal move in a non-terminal state", game.game().name));
    append_codes(game, table, code_count, state, legal.data(), n, out.codes);
    const uint32_t pick = choose(out.codes.data() + out.offsets.back(), legal.data(), n);
    out.offsets.push_back(static_cast<uint32_t>(out.codes.size()));
    out.chosen.push_back(out.codes[out.offsets[out.offsets.size() - 2] + pick]);
    out.sequence.moves.push_back(legal[pick]);
    game.apply_move(state, legal[pick]);
  }
  out.sequence.score = game.score(state);
  return out;
}

// The codes along `moves` played from the initial state (legal moves, stopping anywhere): the sequence's score only
// when they end the game. Throws std::invalid_argument naming the first move that is not legal.
PolicySequence codes_along(const GameInstance& game, const gsdk_move_codes& table, uint32_t code_count,
                           const std::vector<uint32_t>& moves) {
  PolicySequence out;
  StateBlob state = game.initial_state();
  std::vector<uint32_t> legal(game.max_moves());
  for (size_t t = 0; t < moves.size(); ++t) {
    if (game.current_player(state) == GSDK_PLAYER_TERMINAL)
      throw std::invalid_argument(fmt::format("move {} ({}) comes after the game ended", t, moves[t]));
    const uint32_t n = game.checked_legal_moves(state, legal);
    const auto found = std::find(legal.begin(), legal.begin() + n, moves[t]);
    if (found == legal.begin() + n) throw std::invalid_argument(fmt::format("move {} ({}) is not legal", t, moves[t]));
    append_codes(game, table, code_count, state, legal.data(), n, out.codes);
    out.offsets.push_back(static_cast<uint32_t>(out.codes.size()));
    out.chosen.push_back(out.codes[out.offsets[t] + static_cast<uint32_t>(found - legal.begin())]);
    game.apply_move(state, moves[t]);
  }
  out.sequence.moves = moves;
  out.sequence.score = game.current_player(state) == GSDK_PLAYER_TERMINAL ? game.score(state) : MoveSequence{}.score;
  return out;
}

PolicySequence policy_playout(const GameInstance& game, const gsdk_move_codes& table, const Policy& policy,
                              uint64_t seed, uint64_t stream) {
  rng::PhiloxStream random(seed, stream);
  std::vector<double> weights(game.max_moves());
  return play_recording_codes(game, table, static_cast<uint32_t>(policy.size()),
                              [&](const uint32_t* codes, const uint32_t*, uint32_t n) -> uint32_t {
                                if (n == 1) return 0;
                                const double total = nrpa::softmax_weights(policy.data(), codes, n, weights.data());
                                return nrpa::softmax_pick(weights.data(), n, total, random.uniform());
                              });
}

// A device's result with the codes adaptation needs, replayed through the per-state tables.
PolicySequence with_codes(const GameInstance& game, const gsdk_move_codes& table, uint32_t code_count,
                          const NrpaCallResult& result) {
  size_t t = 0;
  PolicySequence out = play_recording_codes(
      game, table, code_count, [&](const uint32_t*, const uint32_t* legal, uint32_t n) -> uint32_t {
        if (t == result.moves.size())
          throw std::runtime_error(
              fmt::format("the device's NRPA sequence of {} moves stops before the game ends", result.moves.size()));
        const uint32_t move = result.moves[t++];
        const uint32_t* found = std::find(legal, legal + n, move);
        if (found == legal + n)
          throw std::runtime_error(
              fmt::format("the device's NRPA sequence plays the illegal move {} at step {}", move, t));
        return static_cast<uint32_t>(found - legal);
      });
  if (t != result.moves.size() || out.sequence.score != result.score)
    throw std::runtime_error(fmt::format("the device reported an NRPA sequence of score {} and {} moves; it replays to "
                                         "score {} after {} moves",
                                         result.score, result.moves.size(), out.sequence.score, t));
  return out;
}

// Rosin's adapt (gsdk/nrpa/adaptation.hpp): every step's deltas are computed from the policy before the
// adaptation and kept, then added in order, which is exact whether or not a game's codes recur along a sequence.
void adapt(Policy& policy, const PolicySequence& best, double alpha, std::vector<std::pair<uint32_t, double>>& deltas,
           std::vector<double>& weights) {
  deltas.clear();
  const auto keep = [&](uint32_t code, double delta) { deltas.emplace_back(code, delta); };
  for (size_t t = 0; t < best.chosen.size(); ++t) {
    const uint32_t begin = best.offsets[t], n = best.offsets[t + 1] - begin;
    weights.resize(std::max<size_t>(weights.size(), n));
    nrpa::step_deltas(policy.data(), best.codes.data() + begin, n, best.chosen[t], alpha, weights.data(), keep);
  }
  for (const auto& [code, delta] : deltas) policy[code] += delta;
}

// One NRPA search as a state machine: levels_[l] is the running NRPA(l) call for bottom < l <= level, and
// each of its calls of level `bottom` (0: a playout) is handed out as a policy and a range of streams.
class NrpaSearch {
public:
  // A search from its beginning: its top level's policy and best the warm start's (WarmStart).
  NrpaSearch(const NrpaSettings& settings, uint32_t bottom, const Policy& policy, const PolicySequence& best,
             SearchRecord& record, uint32_t search)
      : settings_(settings), bottom_(bottom), record_(record), search_(search),
        next_stream_(search * kStreamsPerSearch), levels_(settings.level + 1) {
    levels_[settings.level].policy = policy;
    levels_[settings.level].best = best;
    if (bottom_ < settings.level) start_iteration(settings.level);
  }
  // At the top level's iteration a checkpoint saved (under_way()), whose best sequence `best` is, replayed for
  // its codes; the rest of the search then goes as it went. `saved` was checked to fit.
  NrpaSearch(const NrpaSettings& settings, uint32_t bottom, SearchRecord& record, const SearchUnderWay& saved,
             PolicySequence best)
      : settings_(settings), bottom_(bottom), record_(record), search_(saved.search), next_stream_(saved.counter),
        levels_(settings.level + 1) {
    Level& top = levels_[settings.level];
    top.policy = saved.policy;
    top.best = std::move(best);
    top.iteration = saved.iteration;
    start_iteration(settings.level);
  }

  bool done() const { return done_; }
  uint32_t number() const { return search_; }
  // Where the top level's iteration under way began, for a checkpoint; none when the search is one call of the
  // bottom level (a device's), which starts again.
  std::optional<SearchUnderWay> under_way() const {
    if (done_ || bottom_ == settings_.level) return std::nullopt;
    const Level& top = levels_[settings_.level];
    return SearchUnderWay{search_, {}, top.best.sequence, iteration_stream_, top.iteration, top.policy};
  }
  // The policy of the next call of level `bottom`: the lowest host level's, or the search's own start.
  const Policy& call_policy() const { return levels_[std::min(bottom_ + 1, settings_.level)].policy; }
  // The first stream of the next call, which uses `streams_per_call` of them.
  uint64_t take_streams(uint64_t streams_per_call) {
    const uint64_t first = next_stream_;
    next_stream_ += streams_per_call;
    return first;
  }

  // Offers reach the run's record in the order the search finds them, and a tie within a search goes to the
  // later sequence, as it does at every level: so the record ends with the same sequence whether it saw every
  // playout (CPU) or only the device's results.
  void deliver(PolicySequence found) {
    if (record_.might_take(found.sequence.score)) record_.offer_latest(search_, found.sequence);
    if (bottom_ == settings_.level) {
      done_ = true;
      return;
    }
    complete(bottom_ + 1, std::move(found));
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

  // Opens the next call of level l - 1, down to the level above the bottom.
  void start_iteration(uint32_t l) {
    if (l == settings_.level) iteration_stream_ = next_stream_;
    for (; l > bottom_ + 1; --l) levels_[l - 1] = Level{levels_[l].policy, {}, 0};
  }

  const NrpaSettings& settings_;
  uint32_t bottom_;
  SearchRecord& record_;
  uint32_t search_;
  uint64_t next_stream_;
  uint64_t iteration_stream_ = 0; // next_stream_ when the top level's iteration under way began
  std::vector<Level> levels_;
  std::vector<std::pair<uint32_t, double>> deltas_;
  std::vector<double> weights_; // adapt's scratch
  bool done_ = false;
};

// The best sequence of a search under way that a checkpoint saved, replayed for its codes; throws ResumeError
// unless the search could be under way in this run: a policy of the game's codes, an iteration before the last,
// a best sequence that is the game's (none only before the first iteration).
PolicySequence resumed_best(const GameInstance& game, const gsdk_move_codes& table, uint32_t code_count,
                            const NrpaSettings& settings, const SearchUnderWay& saved) {
  const auto refuse = [&](const std::string& why) {
    throw ResumeError(fmt::format("search {} under way: {}", saved.search, why));
  };
  if (saved.policy.size() != code_count)
    refuse(fmt::format("its policy has {} weights, the game {} move codes", saved.policy.size(), code_count));
  if (saved.iteration >= settings.iterations)
    refuse(fmt::format("iteration {} is not below the run's {}", saved.iteration, settings.iterations));
  if (saved.best.empty() != (saved.iteration == 0))
    refuse("a search has a best sequence once, and only once, it has done an iteration");
  if (saved.best.empty()) return {};
  try {
    return with_codes(game, table, code_count, NrpaCallResult{saved.best.score, saved.best.moves, 0});
  } catch (const std::runtime_error& e) {
    refuse(e.what());
  }
  return {};
}

// Where every search begins: its policy (0, or adapted towards the warm moves), and its top level's best (the warm
// moves when they end the game, else none).
struct WarmStart {
  Policy policy;
  PolicySequence best;
};

WarmStart warm_start(const GameInstance& game, const gsdk_move_codes& table, uint32_t code_count,
                     const NrpaSettings& settings) {
  WarmStart warm{Policy(code_count, 0.0), {}};
  if (settings.warm_moves.empty()) return warm;
  PolicySequence along;
  try {
    along = codes_along(game, table, code_count, settings.warm_moves);
  } catch (const std::invalid_argument& e) {
    throw StartMovesError(fmt::format("NRPA's warm start is not a game of '{}': {}", game.game().name, e.what()));
  }
  std::vector<std::pair<uint32_t, double>> deltas;
  std::vector<double> weights;
  for (uint32_t i = 0; i < settings.warm_adaptations; ++i) adapt(warm.policy, along, settings.alpha, deltas, weights);
  if (!along.sequence.empty()) warm.best = std::move(along);
  return warm;
}

// iterations^level, saturated at a search's 2^40 streams.
uint64_t playouts_per_call(uint32_t iterations, uint32_t level) {
  uint64_t playouts = 1;
  for (uint32_t l = 0; l < level && playouts < kStreamsPerSearch; ++l)
    playouts = std::min(playouts * iterations, kStreamsPerSearch);
  return playouts;
}

} // namespace

NestedSearchOutcome run_nrpa(const GameInstance& game, const NrpaSettings& settings,
                             const ImprovementFn& on_improvement, NrpaSearcher* device) {
  require_one_player_game(game, "NRPA");
  if (settings.level < 1) throw std::invalid_argument("NRPA level must be at least 1");
  if (settings.iterations < 1) throw std::invalid_argument("NRPA needs at least 1 iteration per level");
  const gsdk_move_codes* table = game.tables().move_codes;
  if (!table)
    throw std::invalid_argument(fmt::format("NRPA needs move codes for its policy, and game '{}' has no '{}' table",
                                            game.game().name, GSDK_TABLE_MOVE_CODES));
  const uint32_t code_count = table->code_count(game.handle());
  if (code_count == 0 || code_count > kMaxCodes)
    throw std::invalid_argument(
        fmt::format("game '{}' declares {} move codes; NRPA handles 1 .. {}", game.game().name, code_count, kMaxCodes));
  const uint32_t bottom = device ? device->level() : 0;
  if (bottom > settings.level)
    throw std::invalid_argument(
        fmt::format("NRPA of level {} cannot hand level-{} searches to a device", settings.level, bottom));
  const uint64_t streams_per_call = playouts_per_call(settings.iterations, bottom);
  if (streams_per_call > kStreamsPerSearch / 2)
    throw std::invalid_argument(fmt::format("NRPA: {} iterations per level make a level-{} call too long for its "
                                            "search's 2^40 random streams",
                                            settings.iterations, bottom));
  NestedSearchOutcome outcome;
  outcome.engine = "policy";
  const unsigned threads = std::max(settings.threads, 1u);
  outcome.device = device ? fmt::format("{}; {} host thread{}", device->describe(), threads, threads == 1 ? "" : "s")
                          : fmt::format("cpu, {} thread{} (policy playouts through the per-state table)", threads,
                                        threads == 1 ? "" : "s");
  SearchRecord record(on_improvement, settings.budget);
  // Rounds on a device are waited for whole; a searcher that can end its searches early does so at the deadline.
  if (const auto deadline = record.deadline(settings.budget); device && deadline) device->stop_at(*deadline);
  // A stop request ends them as the deadline arriving now would.
  std::function<void()> stop_now;
  if (device) stop_now = [&] { stop_searches_now(*device); };
  const StopRequestWatch stop_watch(settings.budget.stop, stop_now);
  // A search the device runs whole (its level the search's) has no iteration to go on from: it starts again.
  const WarmStart warm = warm_start(game, *table, code_count, settings);
  const auto make = [&](uint32_t k, const SearchUnderWay* under_way) {
    if (!under_way || bottom == settings.level) {
      // The warm game is the search's first best, as if its first call had found it.
      if (!warm.best.sequence.empty()) record.offer_latest(k, warm.best.sequence);
      return std::make_unique<NrpaSearch>(settings, bottom, warm.policy, warm.best, record, k);
    }
    return std::make_unique<NrpaSearch>(settings, bottom, record, *under_way,
                                        resumed_best(game, *table, code_count, settings, *under_way));
  };
  std::vector<uint64_t> streams;
  std::vector<NrpaCall> calls;
  std::vector<NrpaCallResult> results;
  const auto play_round = [&](std::vector<NrpaSearch*>& round) {
    streams.clear();
    for (NrpaSearch* s : round) streams.push_back(s->take_streams(streams_per_call));
    if (device) {
      calls.clear();
      for (size_t i = 0; i < round.size(); ++i) calls.push_back({round[i]->call_policy().data(), streams[i]});
      results.assign(round.size(), {});
      device->search(calls, results);
    }
    // Each search is played and delivered by one thread; the record takes offers from several, and what it
    // ends with does not depend on their order.
    split_batch(
        threads, round.size(), device ? kMinDeliveriesPerThread : kMinPolicyPlayoutsPerThread, [&](unsigned, size_t i) {
          round[i]->deliver(device ? with_codes(game, *table, code_count, results[i])
                                   : policy_playout(game, *table, round[i]->call_policy(), settings.seed, streams[i]));
        });
    for (size_t i = 0; i < round.size(); ++i)
      outcome.playouts += device && results[i].stopped_after ? results[i].stopped_after : streams_per_call;
  };
  run_side_by_side<NrpaSearch>(settings.budget, record, outcome, make, play_round, [](const NrpaSearch&) {});
  return outcome;
}

} // namespace gsdk::core
