// plugin.hpp - writes the C glue of gsdk_plugin.h for a plugin author.
//
// An author writes a rules class and one macro:
//
//   class MyGame {
//   public:
//     using State = MyState;                               // trivially copyable
//     static constexpr const char* kName = "mygame";
//     static constexpr const char* kDescription = "...";
//     static constexpr uint32_t kPlayers = 1;
//     static constexpr uint32_t kFlags = 0;                // GSDK_GAME_FLAG_*
//     static std::span<const gsdk_param_desc> parameters();
//     explicit MyGame(const gsdk::Params& params);          // may throw gsdk::PluginError
//     uint32_t max_moves() const;
//     std::pair<int64_t, int64_t> score_range() const;
//     void initial_state(State&) const;
//     int32_t current_player(const State&) const;
//     uint32_t legal_moves(const State&, uint32_t* moves, double* probabilities) const;
//     void apply_move(State&, uint32_t move) const;
//     int64_t score(const State&) const;
//     std::string state_to_string(const State&) const;
//     std::string move_to_string(const State&, uint32_t move) const;
//     State state_from_string(std::string_view text) const;  // throws gsdk::PluginError
//     // optional capabilities, detected at compile time:
//     int32_t best_simd_level() const; void cpu_playouts(const gsdk_playout_request&, gsdk_playout_summary&) const;
//     uint64_t cuda_scratch_bytes(uint64_t) const; void cuda_playouts(const gsdk_playout_request&, int32_t device,
//         void* stream, void* scratch, uint64_t scratch_size, gsdk_playout_summary&) const;
//     void cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
//         uint32_t playouts_per_state, int32_t device, void* stream, gsdk_outcome_counts* outcomes) const;
//     std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;
//     void exact_score_distribution(double* probabilities, uint32_t bins) const;
//     uint64_t cpu_perft(const State&, uint32_t depth) const;
//     static constexpr uint32_t kCudaPerftLeafPlies; void cuda_perft_count_leaves(const State*, uint32_t count,
//         uint32_t plies, uint32_t* counts, void* stream) const; void cuda_perft_generate_moves(const State*,
//         uint32_t count, const uint32_t* offsets, uint32_t* moves, void* stream) const;
//         void cuda_perft_apply_moves(const State*, const uint32_t* parents, const uint32_t* moves, uint32_t count,
//         State* children, uint32_t* child_counts, void* stream) const;
//         // and, optionally, both in one launch (ABI 1.8):
//         void cuda_perft_count_leaves_after_moves(const State*, const uint32_t* parents, const uint32_t* moves,
//         uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const;
//     // a tabular environment (gets the CPU Q-learning trainer of gsdk/qlearning/train_cpu.hpp for free):
//     const Env& environment() const; std::span<const uint32_t> start_states() const;
//     uint64_t cuda_qlearning_scratch_bytes(const gsdk_qlearning_request&) const; double cuda_qlearning_train(
//         const gsdk_qlearning_request&, int32_t device, void* stream, void* scratch, uint64_t scratch_size) const;
//     void policy_image(const float* q_table, const uint64_t* visits, std::vector<uint8_t>& rgb, uint32_t& width,
//         uint32_t& height) const;
//     uint32_t code_count() const; uint32_t move_code(const State&, uint32_t move) const;  // NRPA policies
//     uint32_t max_game_length() const; void cuda_level1_searches(uint64_t seed, State* states,
//         const uint64_t* first_streams, uint32_t count, int32_t device, void* stream, gsdk_level1_result* results,
//         uint32_t* moves) const;  // NMCS on a GPU
//     uint64_t cuda_nrpa_scratch_bytes(uint32_t count, uint32_t level) const; void cuda_nrpa_searches(uint64_t seed,
//         uint32_t level, uint32_t iterations, double alpha, double* policies, const uint64_t* first_streams,
//         uint32_t count, int32_t device, void* stream, void* scratch, uint64_t scratch_size,
//         gsdk_nrpa_result* results, uint32_t* moves) const;  // NRPA on a GPU (with max_game_length)
//     uint64_t cuda_level2_scratch_bytes(uint32_t count) const; void cuda_level2_searches(uint64_t seed,
//         const State* states, const uint64_t* search_streams, const uint64_t* ids, uint32_t count, int32_t device,
//         void* stream, void* scratch, uint64_t scratch_size, gsdk_level2_result* results, uint32_t* moves,
//         uint32_t* record_moves) const;  // NMCS level 2 on a GPU (with the level-1 searches)
//     // (a game gets these three searches by defining each as one call of gsdk/nested/cuda_*_searches.cuh over
//     // its device rules, gsdk::nested::NmcsRules and NrpaRules: see docs/plugin_authors.md)
//     bool exact_state(const State&) const;  // playouts from this state report its exact outcome (ABI 1.7)
//     // the game's own document of a move sequence and its independent check (ABI 1.9):
//     std::string sequence_document(std::span<const uint32_t> moves) const;  // a JSON object with "format", "moves"
//     void check_sequence(std::span<const uint32_t> moves) const;  // throws gsdk::PluginError naming the violation
//     void cuda_random_playout_batches(...) const;  // cuda_playout_batches' parameters; exact states at random
//     // each of the three search methods may take a last `const uint32_t* stop = nullptr`: the table then offers
//     // run_stoppable too (ABI 1.6), passing the host's stop request through
//     // a vectorised environment's view of a state (ABI 1.11; the CPU fill is noexcept):
//     std::vector<uint32_t> observation_shape() const; int32_t observation_type() const;  // GSDK_ELEMENT_*
//     void fill_observations(const State* states, uint32_t count, void* out) const noexcept;
//     void cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const;
//     // many games stepped at once by move codes (ABI 1.11; needs the move codes, refused for chance games):
//     void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
//         int32_t* players, uint8_t* legal) const;
//     void cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
//         float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal) const;
//     void cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
//         uint8_t* legal) const;  // with cuda_step_batch
//     // either step may take a last `State* final_states` (ABI 1.13; null or, for each game the step ends, where its
//     // final state goes before the restart): the table then offers step_keeping_final / cuda_step_keeping_final,
//     // which give learners their final observations
//     // canonical states for hashed perft (ABI 1.12): the bytes that never change a subtree's counts (move clocks)
//     // set to fixed values in place; the device form beside it fills cuda_canonical only with the CUDA perft
//     // kernels (in place allowed, enqueued on the stream):
//     void canonical_state(State&) const;
//     void cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const;
//   };
//   GSDK_PLUGIN(MyGame, "1.0.0")
//
// No exception crosses the ABI: every entry point catches at the edge and turns the exception into
// a status code and a message.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/qlearning/train_cpu.hpp"

namespace gsdk {

// Thrown by rules code for bad input; becomes GSDK_ERR_INVALID_ARGUMENT and its message.
class PluginError : public std::runtime_error {
public:
  explicit PluginError(const std::string& message, int32_t status = GSDK_ERR_INVALID_ARGUMENT)
      : std::runtime_error(message), status_(status) {}
  int32_t status() const { return status_; }

private:
  int32_t status_;
};

// Read access to the parameter values the host passes to create().
class Params {
public:
  Params(const gsdk_param_value* values, uint32_t count) : values_(values, count) {}

  int64_t get_int(std::string_view name) const { return find(name, GSDK_PARAM_INT).int_value; }
  double get_real(std::string_view name) const { return find(name, GSDK_PARAM_REAL).real_value; }
  bool get_bool(std::string_view name) const { return find(name, GSDK_PARAM_BOOL).int_value != 0; }
  std::string get_string(std::string_view name) const {
    const char* s = find(name, GSDK_PARAM_STRING).string_value;
    return s ? s : "";
  }

private:
  const gsdk_param_value& find(std::string_view name, int32_t type) const {
    for (const auto& v : values_)
      if (v.name && name == v.name && v.type == type) return v;
    throw PluginError("parameter '" + std::string(name) + "' was not passed by the host");
  }
  std::span<const gsdk_param_value> values_;
};

namespace detail {

inline void copy_message(const char* message, char* buffer, uint32_t size) {
  if (!buffer || size == 0) return;
  std::strncpy(buffer, message, size - 1);
  buffer[size - 1] = '\0';
}

inline uint32_t copy_text(const std::string& text, char* buffer, uint32_t size) {
  if (buffer && size > 0) copy_message(text.c_str(), buffer, size);
  return static_cast<uint32_t>(text.size());
}

// Runs body, mapping exceptions to status codes and messages.
template <typename Body> int32_t guarded(char* error, uint32_t error_size, Body&& body) {
  try {
    body();
    return GSDK_OK;
  } catch (const PluginError& e) {
    copy_message(e.what(), error, error_size);
    return e.status();
  } catch (const std::bad_alloc&) {
    copy_message("out of memory", error, error_size);
    return GSDK_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return GSDK_ERR_INTERNAL;
  } catch (...) {
    copy_message("unknown exception in plugin", error, error_size);
    return GSDK_ERR_INTERNAL;
  }
}

template <typename G>
concept HasCpuPlayouts = requires(const G g, const gsdk_playout_request& r, gsdk_playout_summary& s) {
  { G::best_simd_level() } -> std::convertible_to<int32_t>;
  g.cpu_playouts(r, s);
};

template <typename G>
concept HasCudaPlayouts = requires(const G g, const gsdk_playout_request& r, gsdk_playout_summary& s) {
  { g.cuda_scratch_bytes(uint64_t{}) } -> std::convertible_to<uint64_t>;
  g.cuda_playouts(r, int32_t{}, static_cast<void*>(nullptr), static_cast<void*>(nullptr), uint64_t{}, s);
};

template <typename G>
concept HasCudaPlayoutBatches = requires(const G g, const typename G::State* states, gsdk_outcome_counts* out) {
  g.cuda_playout_batches(uint64_t{}, uint64_t{}, states, uint32_t{}, uint32_t{}, int32_t{},
                         static_cast<void*>(nullptr), out);
};

template <typename G>
concept HasScoreDistribution = requires(const G g, double* p) { g.exact_score_distribution(p, uint32_t{}); };

template <typename G>
concept HasReplay = requires(const G g, const typename G::State* start) {
  { g.replay_playout(uint64_t{}, uint64_t{}, start) } -> std::convertible_to<std::vector<uint32_t>>;
};

template <typename G>
concept HasCpuPerft = requires(const G g, const typename G::State& s) {
  { g.cpu_perft(s, uint32_t{}) } -> std::convertible_to<uint64_t>;
};

template <typename G>
concept HasCudaPerft = requires(const G g, const typename G::State* states, typename G::State* children,
                                const uint32_t* in, uint32_t* out, void* stream) {
  { G::kCudaPerftLeafPlies } -> std::convertible_to<uint32_t>;
  g.cuda_perft_count_leaves(states, uint32_t{}, uint32_t{}, out, stream);
  g.cuda_perft_generate_moves(states, uint32_t{}, in, out, stream);
  g.cuda_perft_apply_moves(states, in, in, uint32_t{}, children, out, stream);
};

template <typename G>
concept FusesCudaPerftLeaves = requires(const G g, const typename G::State* states, const uint32_t* in, uint32_t* out,
                                        void* stream) {
  g.cuda_perft_count_leaves_after_moves(states, in, in, uint32_t{}, uint32_t{}, out, stream);
};

template <typename G>
concept HasEnvironment = requires(const G g) {
  { g.environment().step(uint32_t{}, uint32_t{}) } -> std::same_as<qlearning::Transition>;
  { g.environment().state_count() } -> std::convertible_to<uint32_t>;
  { g.environment().action_count() } -> std::convertible_to<uint32_t>;
  { g.environment().agent_count() } -> std::convertible_to<uint32_t>;
  { g.environment().step_limit() } -> std::convertible_to<uint32_t>;
  { g.start_states() } -> std::convertible_to<std::span<const uint32_t>>;
};

template <typename G>
concept HasCudaQLearning = requires(const G g, const gsdk_qlearning_request& r) {
  { g.cuda_qlearning_scratch_bytes(r) } -> std::convertible_to<uint64_t>;
  { g.cuda_qlearning_train(r, int32_t{}, static_cast<void*>(nullptr), static_cast<void*>(nullptr), uint64_t{}) }
      -> std::convertible_to<double>;
};

template <typename G>
concept HasPolicyImage = requires(const G g, std::vector<uint8_t>& rgb, uint32_t& w) {
  g.policy_image(static_cast<const float*>(nullptr), static_cast<const uint64_t*>(nullptr), rgb, w, w);
};

template <typename G>
concept HasCudaLevel1Searches = requires(const G g, typename G::State* states, gsdk_level1_result* out) {
  { g.max_game_length() } -> std::convertible_to<uint32_t>;
  g.cuda_level1_searches(uint64_t{}, states, static_cast<const uint64_t*>(nullptr), uint32_t{}, int32_t{},
                         static_cast<void*>(nullptr), out, static_cast<uint32_t*>(nullptr));
};
template <typename G>
concept HasCudaLevel2Searches = HasCudaLevel1Searches<G> && requires(const G g, const typename G::State* states,
                                                                      gsdk_level2_result* out) {
  { g.cuda_level2_scratch_bytes(uint32_t{}) } -> std::convertible_to<uint64_t>;
  g.cuda_level2_searches(uint64_t{}, states, static_cast<const uint64_t*>(nullptr), static_cast<const uint64_t*>(nullptr),
                         uint32_t{}, int32_t{}, static_cast<void*>(nullptr), static_cast<void*>(nullptr), uint64_t{},
                         out, static_cast<uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr));
};
template <typename G>
concept HasCudaNrpaSearches = requires(const G g, gsdk_nrpa_result* out) {
  { g.max_game_length() } -> std::convertible_to<uint32_t>;
  { g.cuda_nrpa_scratch_bytes(uint32_t{}, uint32_t{}) } -> std::convertible_to<uint64_t>;
  g.cuda_nrpa_searches(uint64_t{}, uint32_t{}, uint32_t{}, double{}, static_cast<double*>(nullptr),
                       static_cast<const uint64_t*>(nullptr), uint32_t{}, int32_t{}, static_cast<void*>(nullptr),
                       static_cast<void*>(nullptr), uint64_t{}, out, static_cast<uint32_t*>(nullptr));
};
// The search methods that also take a stop request (a last `const uint32_t* stop`, defaulted so run can omit it).
template <typename G>
concept StopsCudaLevel1Searches = requires(const G g, typename G::State* states, gsdk_level1_result* out) {
  g.cuda_level1_searches(uint64_t{}, states, static_cast<const uint64_t*>(nullptr), uint32_t{}, int32_t{},
                         static_cast<void*>(nullptr), out, static_cast<uint32_t*>(nullptr),
                         static_cast<const uint32_t*>(nullptr));
};
template <typename G>
concept StopsCudaLevel2Searches = requires(const G g, const typename G::State* states, gsdk_level2_result* out) {
  g.cuda_level2_searches(uint64_t{}, states, static_cast<const uint64_t*>(nullptr), static_cast<const uint64_t*>(nullptr),
                         uint32_t{}, int32_t{}, static_cast<void*>(nullptr), static_cast<void*>(nullptr), uint64_t{},
                         out, static_cast<uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                         static_cast<const uint32_t*>(nullptr));
};
template <typename G>
concept StopsCudaNrpaSearches = requires(const G g, gsdk_nrpa_result* out) {
  g.cuda_nrpa_searches(uint64_t{}, uint32_t{}, uint32_t{}, double{}, static_cast<double*>(nullptr),
                       static_cast<const uint64_t*>(nullptr), uint32_t{}, int32_t{}, static_cast<void*>(nullptr),
                       static_cast<void*>(nullptr), uint64_t{}, out, static_cast<uint32_t*>(nullptr),
                       static_cast<const uint32_t*>(nullptr));
};
template <typename G>
concept HasMoveCodes = requires(const G g, const typename G::State& s) {
  { g.code_count() } -> std::convertible_to<uint32_t>;
  { g.move_code(s, uint32_t{}) } -> std::convertible_to<uint32_t>;
};

template <typename G>
concept HasSequenceDocuments = requires(const G g, std::span<const uint32_t> moves) {
  { g.sequence_document(moves) } -> std::convertible_to<std::string>;
  g.check_sequence(moves);
};

template <typename G>
concept HasExactStates = requires(const G g, const typename G::State& s) {
  { g.exact_state(s) } -> std::convertible_to<bool>;
};
// gsdk.evaluation.v1: evaluation_scale() bounds every evaluate(s) (the side to move's view) strictly;
// state_hash(s) keys transposition tables.
template <typename G>
concept HasEvaluation = requires(const G g, const typename G::State& s) {
  { g.evaluation_scale() } -> std::convertible_to<int32_t>;
  { g.evaluate(s) } -> std::convertible_to<int32_t>;
  { g.state_hash(s) } -> std::convertible_to<uint64_t>;
};
template <typename G>
concept HasCudaEvaluation = requires(const G g, const typename G::State* states, int32_t* values) {
  g.cuda_evaluate(states, uint32_t{}, int32_t{}, static_cast<void*>(nullptr), values);
};
template <typename G>
concept HasCudaRandomPlayoutBatches = requires(const G g, const typename G::State* states, gsdk_outcome_counts* out) {
  g.cuda_random_playout_batches(uint64_t{}, uint64_t{}, states, uint32_t{}, uint32_t{}, int32_t{},
                                static_cast<void*>(nullptr), out);
};

// gsdk.observations.v1: the extents and element type of every state's observation, and the CPU fill (which cannot
// report an error through the ABI, so it is noexcept); a CUDA fill beside it.
template <typename G>
concept HasObservations = requires(const G g, const typename G::State* states, void* out) {
  { g.observation_shape() } -> std::convertible_to<std::vector<uint32_t>>;
  { g.observation_type() } -> std::convertible_to<int32_t>;
  g.fill_observations(states, uint32_t{}, out);
};
template <typename G>
concept FillsObservationsWithoutThrowing = requires(const G g, const typename G::State* states, void* out) {
  { g.fill_observations(states, uint32_t{}, out) } noexcept;
};
template <typename G>
concept HasCudaObservations = requires(const G g, const typename G::State* states, void* out) {
  g.cuda_fill_observations(states, uint32_t{}, int32_t{}, static_cast<void*>(nullptr), out);
};
// gsdk.batched_steps.v1: the CPU step of a batch, and the CUDA step and reset beside it.
template <typename G>
concept HasBatchedStepsOnly = requires(const G g, typename G::State* states, const uint32_t* actions, float* rewards,
                                       uint8_t* bytes, int32_t* players) {
  g.step_batch(states, actions, uint32_t{}, rewards, bytes, players, bytes);
};
template <typename G>
concept HasBatchedStepsKeepingFinal = requires(const G g, typename G::State* states, const uint32_t* actions,
                                               float* rewards, uint8_t* bytes, int32_t* players) {
  g.step_batch(states, actions, uint32_t{}, rewards, bytes, players, bytes, states);
};
template <typename G> concept HasBatchedSteps = HasBatchedStepsOnly<G> || HasBatchedStepsKeepingFinal<G>;
template <typename G>
concept HasCudaBatchedStepsOnly = requires(const G g, typename G::State* states, const uint32_t* actions, float* rewards,
                                       uint8_t* bytes, int32_t* players, void* stream) {
  g.cuda_step_batch(states, actions, uint32_t{}, int32_t{}, stream, rewards, bytes, players, bytes);
  g.cuda_reset_batch(states, uint32_t{}, int32_t{}, stream, players, bytes);
};
template <typename G>
concept HasCudaBatchedStepsKeepingFinal = requires(const G g, typename G::State* states, const uint32_t* actions,
                                                   float* rewards, uint8_t* bytes, int32_t* players, void* stream) {
  g.cuda_step_batch(states, actions, uint32_t{}, int32_t{}, stream, rewards, bytes, players, bytes, states);
  g.cuda_reset_batch(states, uint32_t{}, int32_t{}, stream, players, bytes);
};
template <typename G>
concept HasCudaBatchedSteps = HasCudaBatchedStepsOnly<G> || HasCudaBatchedStepsKeepingFinal<G>;

// gsdk.perft_keys.v1: the CPU canonical_state of one state in place, and the device form over a batch beside it.
template <typename G>
concept HasPerftKeys = requires(const G g, typename G::State& s) { g.canonical_state(s); };
template <typename G>
concept HasCudaPerftKeys = requires(const G g, const typename G::State* in, typename G::State* out, void* stream) {
  g.cuda_canonical_states(in, uint32_t{}, out, stream);
};

// A batch call's arrays: NULL with a non-empty batch is the caller's mistake, refused with the array's name.
inline void require_arrays(const char* call, uint32_t count,
                           std::initializer_list<std::pair<const char*, const void*>> arrays) {
  if (count == 0) return;
  for (const auto& [name, array] : arrays)
    if (!array)
      throw PluginError(std::string(call) + ": `" + name + "` is NULL for a batch of " + std::to_string(count) +
                        " states");
}

// The static C tables of one game class.
template <typename G> struct Adapter {
  using State = typename G::State;
  static_assert(std::is_trivially_copyable_v<State>, "game states must be POD blobs");
  static_assert(!HasBatchedSteps<G> || (G::kFlags & GSDK_GAME_FLAG_CHANCE) == 0,
                "gsdk.batched_steps.v1 is for games without chance nodes: remove step_batch or GSDK_GAME_FLAG_CHANCE");
  static_assert(!HasBatchedSteps<G> || HasMoveCodes<G>,
                "gsdk.batched_steps.v1 takes move codes as actions: step_batch needs code_count() and move_code()");
  static_assert(!HasCudaBatchedSteps<G> || HasBatchedSteps<G>,
                "cuda_step_batch and cuda_reset_batch complete a CPU step_batch, which is missing");
  static_assert(!HasObservations<G> || FillsObservationsWithoutThrowing<G>,
                "fill_observations must be noexcept: gsdk.observations.v1's fill has no error channel");
  static_assert(!HasCudaObservations<G> || HasObservations<G>,
                "cuda_fill_observations completes fill_observations, observation_shape and observation_type");
  static_assert(!HasCudaPerftKeys<G> || HasPerftKeys<G>, "cuda_canonical_states completes canonical_state");

  static const G& game(const gsdk_game_instance* i) { return *reinterpret_cast<const G*>(i); }
  static const State& state(const void* s) { return *static_cast<const State*>(s); }
  static State& state(void* s) { return *static_cast<State*>(s); }

  static int32_t create(const gsdk_param_value* values, uint32_t count, gsdk_game_instance** out,
                        char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      *out = reinterpret_cast<gsdk_game_instance*>(new G(Params(values, count)));
    });
  }
  static void destroy(gsdk_game_instance* i) { delete reinterpret_cast<G*>(i); }
  static uint32_t state_size(const gsdk_game_instance*) { return sizeof(State); }
  static uint32_t max_moves(const gsdk_game_instance* i) { return game(i).max_moves(); }
  static void score_range(const gsdk_game_instance* i, int64_t* lo, int64_t* hi) {
    const auto [a, b] = game(i).score_range();
    *lo = a;
    *hi = b;
  }
  static void initial_state(const gsdk_game_instance* i, void* s) { game(i).initial_state(state(s)); }
  static int32_t current_player(const gsdk_game_instance* i, const void* s) {
    return game(i).current_player(state(s));
  }
  static uint32_t legal_moves(const gsdk_game_instance* i, const void* s, uint32_t* moves, double* p) {
    return game(i).legal_moves(state(s), moves, p);
  }
  static void apply_move(const gsdk_game_instance* i, void* s, uint32_t m) { game(i).apply_move(state(s), m); }
  static int64_t score(const gsdk_game_instance* i, const void* s) { return game(i).score(state(s)); }
  static uint32_t state_to_string(const gsdk_game_instance* i, const void* s, char* b, uint32_t n) {
    return copy_text(game(i).state_to_string(state(s)), b, n);
  }
  static uint32_t move_to_string(const gsdk_game_instance* i, const void* s, uint32_t m, char* b, uint32_t n) {
    return copy_text(game(i).move_to_string(state(s), m), b, n);
  }
  static int32_t state_from_string(const gsdk_game_instance* i, const char* text, void* s, char* error,
                                   uint32_t error_size) {
    return guarded(error, error_size, [&] { state(s) = game(i).state_from_string(text ? text : ""); });
  }

  static int32_t best_simd_level() {
    if constexpr (HasCpuPlayouts<G>) return G::best_simd_level();
    return GSDK_SIMD_SCALAR;
  }
  static int32_t cpu_run(const gsdk_game_instance* i, const gsdk_playout_request* r, gsdk_playout_summary* s,
                         char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] { game(i).cpu_playouts(*r, *s); });
  }
  static uint64_t cuda_scratch(const gsdk_game_instance* i, uint64_t count) {
    return game(i).cuda_scratch_bytes(count);
  }
  static int32_t cuda_run(const gsdk_game_instance* i, const gsdk_playout_request* r, int32_t device,
                          void* stream, void* scratch, uint64_t scratch_size, gsdk_playout_summary* s,
                          char* error, uint32_t error_size) {
    return guarded(error, error_size,
                   [&] { game(i).cuda_playouts(*r, device, stream, scratch, scratch_size, *s); });
  }
  static int32_t cuda_batches_run(const gsdk_game_instance* i, uint64_t seed, uint64_t first, const void* s,
                                  uint32_t count, uint32_t per_state, int32_t device, void* stream,
                                  gsdk_outcome_counts* outcomes, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      game(i).cuda_playout_batches(seed, first, states(s), count, per_state, device, stream, outcomes);
    });
  }
  static int32_t cuda_random_batches_run(const gsdk_game_instance* i, uint64_t seed, uint64_t first, const void* s,
                                         uint32_t count, uint32_t per_state, int32_t device, void* stream,
                                         gsdk_outcome_counts* outcomes, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      game(i).cuda_random_playout_batches(seed, first, states(s), count, per_state, device, stream, outcomes);
    });
  }
  static int32_t evaluation_scale(const gsdk_game_instance* i) { return game(i).evaluation_scale(); }
  static int32_t evaluate_states(const gsdk_game_instance* i, const void* s, uint32_t count, int32_t* values,
                                 char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      for (uint32_t k = 0; k < count; ++k) values[k] = game(i).evaluate(states(s)[k]);
    });
  }
  static uint64_t state_hash(const gsdk_game_instance* i, const void* s) { return game(i).state_hash(state(s)); }
  static int32_t cuda_evaluate_run(const gsdk_game_instance* i, const void* s, uint32_t count, int32_t device,
                                   void* stream, int32_t* values, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] { game(i).cuda_evaluate(states(s), count, device, stream, values); });
  }
  static constexpr auto cuda_evaluation() -> decltype(gsdk_evaluation::cuda_evaluate) {
    if constexpr (HasCudaEvaluation<G>) return &cuda_evaluate_run;
    return nullptr;
  }
  static uint32_t replay(const gsdk_game_instance* i, uint64_t seed, uint64_t playout, const void* start,
                         uint32_t* moves, uint32_t capacity, char* error, uint32_t error_size) {
    uint32_t count = 0;
    const int32_t status = guarded(error, error_size, [&] {
      const auto sequence =
          game(i).replay_playout(seed, playout, start ? &state(start) : static_cast<const State*>(nullptr));
      if (sequence.size() > capacity)
        throw PluginError("replay needs " + std::to_string(sequence.size()) + " moves of room, got " +
                          std::to_string(capacity));
      std::memcpy(moves, sequence.data(), sequence.size() * sizeof(uint32_t));
      count = static_cast<uint32_t>(sequence.size());
    });
    return status == GSDK_OK ? count : 0;
  }

  static int32_t score_distribution(const gsdk_game_instance* i, double* probabilities, uint32_t bins,
                                    char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] { game(i).exact_score_distribution(probabilities, bins); });
  }

  static int32_t perft_count(const gsdk_game_instance* i, const void* s, uint32_t depth, uint64_t* leaves,
                             char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] { *leaves = game(i).cpu_perft(state(s), depth); });
  }
  static const State* states(const void* s) { return static_cast<const State*>(s); }
  static int32_t cuda_count_leaves(const gsdk_game_instance* i, const void* s, uint32_t count, uint32_t plies,
                                   uint32_t* counts, void* stream, char* error, uint32_t error_size) {
    return guarded(error, error_size,
                   [&] { game(i).cuda_perft_count_leaves(states(s), count, plies, counts, stream); });
  }
  static int32_t cuda_generate_moves(const gsdk_game_instance* i, const void* s, uint32_t count,
                                     const uint32_t* offsets, uint32_t* moves, void* stream, char* error,
                                     uint32_t error_size) {
    return guarded(error, error_size,
                   [&] { game(i).cuda_perft_generate_moves(states(s), count, offsets, moves, stream); });
  }
  static int32_t cuda_apply_moves(const gsdk_game_instance* i, const void* s, const uint32_t* parents,
                                  const uint32_t* moves, uint32_t count, void* children, uint32_t* child_counts,
                                  void* stream, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      game(i).cuda_perft_apply_moves(states(s), parents, moves, count, static_cast<State*>(children), child_counts,
                                     stream);
    });
  }

  static int32_t cuda_count_leaves_after_moves(const gsdk_game_instance* i, const void* s, const uint32_t* parents,
                                               const uint32_t* moves, uint32_t count, uint32_t plies, uint32_t* counts,
                                               void* stream, char* error, uint32_t error_size)
    requires FusesCudaPerftLeaves<G>
  {
    return guarded(error, error_size, [&] {
      game(i).cuda_perft_count_leaves_after_moves(states(s), parents, moves, count, plies, counts, stream);
    });
  }
  // The table's ABI 1.8 entry: NULL for rules that count the leaves only from stored children.
  static constexpr decltype(gsdk_cuda_perft::count_leaves_after_moves) fused_leaf_count_entry() {
    if constexpr (FusesCudaPerftLeaves<G>) return &cuda_count_leaves_after_moves;
    else return nullptr;
  }

  static uint32_t env_states(const gsdk_game_instance* i) { return game(i).environment().state_count(); }
  static uint32_t env_actions(const gsdk_game_instance* i) { return game(i).environment().action_count(); }
  static uint32_t env_agents(const gsdk_game_instance* i) { return game(i).environment().agent_count(); }
  static uint32_t env_step_limit(const gsdk_game_instance* i) { return game(i).environment().step_limit(); }
  static uint32_t env_starts(const gsdk_game_instance* i, uint32_t* out, uint32_t capacity) {
    const std::span<const uint32_t> starts = game(i).start_states();
    if (out) std::memcpy(out, starts.data(), std::min<size_t>(capacity, starts.size()) * sizeof(uint32_t));
    return static_cast<uint32_t>(starts.size());
  }
  static void env_step(const gsdk_game_instance* i, uint32_t state, uint32_t action, uint32_t* next, float* reward,
                       int32_t* terminal) {
    const qlearning::Transition t = game(i).environment().step(state, action);
    *next = t.next;
    *reward = t.reward;
    *terminal = t.terminal ? 1 : 0;
  }
  static int32_t cpu_qlearning(const gsdk_game_instance* i, const gsdk_qlearning_request* r, char* error,
                               uint32_t error_size) {
    return guarded(error, error_size,
                   [&] { qlearning::train_cpu(game(i).environment(), *r, game(i).start_states()); });
  }
  static uint64_t cuda_qlearning_scratch(const gsdk_game_instance* i, const gsdk_qlearning_request* r) {
    return game(i).cuda_qlearning_scratch_bytes(*r);
  }
  static int32_t cuda_qlearning(const gsdk_game_instance* i, const gsdk_qlearning_request* r, int32_t device,
                                void* stream, void* scratch, uint64_t scratch_size, double* milliseconds, char* error,
                                uint32_t error_size) {
    return guarded(error, error_size, [&] {
      const double ms = game(i).cuda_qlearning_train(*r, device, stream, scratch, scratch_size);
      if (milliseconds) *milliseconds = ms;
    });
  }
  static int32_t policy_image(const gsdk_game_instance* i, const float* q, const uint64_t* visits, uint8_t* rgb,
                              uint64_t capacity, uint32_t* width, uint32_t* height, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      std::vector<uint8_t> pixels;
      game(i).policy_image(q, visits, pixels, *width, *height);
      if (rgb && capacity >= pixels.size()) std::memcpy(rgb, pixels.data(), pixels.size());
    });
  }

  static uint32_t max_game_length(const gsdk_game_instance* i) { return game(i).max_game_length(); }
  // Each search table's run is its run_stoppable without a stop; rules without the stop parameter never get one
  // (their table's run_stoppable is null).
  static int32_t cuda_level1_run(const gsdk_game_instance* i, uint64_t seed, void* s, const uint64_t* first_streams,
                                 uint32_t count, int32_t device, void* stream, gsdk_level1_result* results,
                                 uint32_t* moves, char* error, uint32_t error_size) {
    return cuda_level1_run_stoppable(i, seed, s, first_streams, count, device, stream, results, moves, nullptr, error,
                                     error_size);
  }
  static int32_t cuda_level1_run_stoppable(const gsdk_game_instance* i, uint64_t seed, void* s,
                                           const uint64_t* first_streams, uint32_t count, int32_t device, void* stream,
                                           gsdk_level1_result* results, uint32_t* moves, const uint32_t* stop,
                                           char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      auto* states = static_cast<State*>(s);
      if constexpr (StopsCudaLevel1Searches<G>)
        game(i).cuda_level1_searches(seed, states, first_streams, count, device, stream, results, moves, stop);
      else
        game(i).cuda_level1_searches(seed, states, first_streams, count, device, stream, results, moves);
    });
  }
  static uint64_t cuda_level2_scratch(const gsdk_game_instance* i, uint32_t count) {
    return game(i).cuda_level2_scratch_bytes(count);
  }
  static int32_t cuda_level2_run(const gsdk_game_instance* i, uint64_t seed, const void* s, const uint64_t* streams,
                                 const uint64_t* ids, uint32_t count, int32_t device, void* stream, void* scratch,
                                 uint64_t scratch_size, gsdk_level2_result* results, uint32_t* moves,
                                 uint32_t* record_moves, char* error, uint32_t error_size) {
    return cuda_level2_run_stoppable(i, seed, s, streams, ids, count, device, stream, scratch, scratch_size, results,
                                     moves, record_moves, nullptr, error, error_size);
  }
  static int32_t cuda_level2_run_stoppable(const gsdk_game_instance* i, uint64_t seed, const void* s,
                                           const uint64_t* streams, const uint64_t* ids, uint32_t count, int32_t device,
                                           void* stream, void* scratch, uint64_t scratch_size,
                                           gsdk_level2_result* results, uint32_t* moves, uint32_t* record_moves,
                                           const uint32_t* stop, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      const auto* states = static_cast<const State*>(s);
      if constexpr (StopsCudaLevel2Searches<G>)
        game(i).cuda_level2_searches(seed, states, streams, ids, count, device, stream, scratch, scratch_size, results,
                                     moves, record_moves, stop);
      else
        game(i).cuda_level2_searches(seed, states, streams, ids, count, device, stream, scratch, scratch_size, results,
                                     moves, record_moves);
    });
  }
  static uint64_t cuda_nrpa_scratch(const gsdk_game_instance* i, uint32_t count, uint32_t level) {
    return game(i).cuda_nrpa_scratch_bytes(count, level);
  }
  static int32_t cuda_nrpa_run(const gsdk_game_instance* i, uint64_t seed, uint32_t level, uint32_t iterations,
                               double alpha, double* policies, const uint64_t* first_streams, uint32_t count,
                               int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                               gsdk_nrpa_result* results, uint32_t* moves, char* error, uint32_t error_size) {
    return cuda_nrpa_run_stoppable(i, seed, level, iterations, alpha, policies, first_streams, count, device, stream,
                                   scratch, scratch_size, results, moves, nullptr, error, error_size);
  }
  static int32_t cuda_nrpa_run_stoppable(const gsdk_game_instance* i, uint64_t seed, uint32_t level,
                                         uint32_t iterations, double alpha, double* policies,
                                         const uint64_t* first_streams, uint32_t count, int32_t device, void* stream,
                                         void* scratch, uint64_t scratch_size, gsdk_nrpa_result* results,
                                         uint32_t* moves, const uint32_t* stop, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      if constexpr (StopsCudaNrpaSearches<G>)
        game(i).cuda_nrpa_searches(seed, level, iterations, alpha, policies, first_streams, count, device, stream,
                                   scratch, scratch_size, results, moves, stop);
      else
        game(i).cuda_nrpa_searches(seed, level, iterations, alpha, policies, first_streams, count, device, stream,
                                   scratch, scratch_size, results, moves);
    });
  }
  static uint32_t code_count(const gsdk_game_instance* i) { return game(i).code_count(); }
  static uint32_t write_document(const gsdk_game_instance* i, const uint32_t* moves, uint32_t count, char* buffer,
                                 uint32_t buffer_size, char* error, uint32_t error_size) {
    std::string text;
    if (guarded(error, error_size, [&] { text = game(i).sequence_document({moves, count}); }) != GSDK_OK) return 0;
    return copy_text(text, buffer, buffer_size);
  }
  static int32_t check_sequence(const gsdk_game_instance* i, const uint32_t* moves, uint32_t count, char* error,
                                uint32_t error_size) {
    return guarded(error, error_size, [&] { game(i).check_sequence({moves, count}); });
  }
  static int32_t is_exact(const gsdk_game_instance* i, const void* s) { return game(i).exact_state(state(s)) ? 1 : 0; }
  static constexpr auto random_batches() -> decltype(gsdk_exact_states::cuda_random_playout_batches) {
    if constexpr (HasCudaRandomPlayoutBatches<G>) return &cuda_random_batches_run;
    return nullptr;
  }
  static uint32_t move_code(const gsdk_game_instance* i, const void* s, uint32_t m) {
    return game(i).move_code(state(s), m);
  }

  static uint32_t observation_shape(const gsdk_game_instance* i, uint32_t* extents, uint32_t capacity) {
    const std::vector<uint32_t> shape = game(i).observation_shape();
    if (extents) std::copy_n(shape.begin(), std::min<size_t>(capacity, shape.size()), extents);
    return static_cast<uint32_t>(shape.size());
  }
  static int32_t observation_type(const gsdk_game_instance* i) { return game(i).observation_type(); }
  static void fill_observations(const gsdk_game_instance* i, const void* s, uint32_t count, void* out) {
    game(i).fill_observations(states(s), count, out);
  }
  static int32_t cuda_fill_observations(const gsdk_game_instance* i, const void* s, uint32_t count, int32_t device,
                                        void* stream, void* out, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("cuda_fill observations", count, {{"states", s}, {"observations", out}});
      game(i).cuda_fill_observations(states(s), count, device, stream, out);
    });
  }
  static constexpr auto cuda_observations() -> decltype(gsdk_observations::cuda_fill) {
    if constexpr (HasCudaObservations<G>) return &cuda_fill_observations;
    return nullptr;
  }
  static int32_t step_batch(const gsdk_game_instance* i, void* s, const uint32_t* actions, uint32_t count,
                            float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal, char* error,
                            uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("batched step", count,
                     {{"states", s}, {"actions", actions}, {"rewards", rewards}, {"terminated", terminated},
                      {"players", players}, {"legal", legal}});
      if constexpr (HasBatchedStepsKeepingFinal<G>)
        game(i).step_batch(static_cast<State*>(s), actions, count, rewards, terminated, players, legal, nullptr);
      else
        game(i).step_batch(static_cast<State*>(s), actions, count, rewards, terminated, players, legal);
    });
  }
  static int32_t step_batch_keeping_final(const gsdk_game_instance* i, void* s, const uint32_t* actions,
                                          uint32_t count, float* rewards, uint8_t* terminated, int32_t* players,
                                          uint8_t* legal, void* final_states, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("batched step keeping final states", count,
                     {{"states", s}, {"actions", actions}, {"rewards", rewards}, {"terminated", terminated},
                      {"players", players}, {"legal", legal}, {"final_states", final_states}});
      game(i).step_batch(static_cast<State*>(s), actions, count, rewards, terminated, players, legal,
                         static_cast<State*>(final_states));
    });
  }
  static constexpr auto steps_keeping_final() -> decltype(gsdk_batched_steps::step_keeping_final) {
    if constexpr (HasBatchedStepsKeepingFinal<G>) return &step_batch_keeping_final;
    return nullptr;
  }
  static int32_t cuda_step_batch(const gsdk_game_instance* i, void* s, const uint32_t* actions, uint32_t count,
                                 int32_t device, void* stream, float* rewards, uint8_t* terminated, int32_t* players,
                                 uint8_t* legal, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("cuda batched step", count,
                     {{"states", s}, {"actions", actions}, {"rewards", rewards}, {"terminated", terminated},
                      {"players", players}, {"legal", legal}});
      if constexpr (HasCudaBatchedStepsKeepingFinal<G>)
        game(i).cuda_step_batch(static_cast<State*>(s), actions, count, device, stream, rewards, terminated, players,
                                legal, nullptr);
      else
        game(i).cuda_step_batch(static_cast<State*>(s), actions, count, device, stream, rewards, terminated, players,
                                legal);
    });
  }
  static int32_t cuda_step_batch_keeping_final(const gsdk_game_instance* i, void* s, const uint32_t* actions,
                                               uint32_t count, int32_t device, void* stream, float* rewards,
                                               uint8_t* terminated, int32_t* players, uint8_t* legal,
                                               void* final_states, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("cuda batched step keeping final states", count,
                     {{"states", s}, {"actions", actions}, {"rewards", rewards}, {"terminated", terminated},
                      {"players", players}, {"legal", legal}, {"final_states", final_states}});
      game(i).cuda_step_batch(static_cast<State*>(s), actions, count, device, stream, rewards, terminated, players,
                              legal, static_cast<State*>(final_states));
    });
  }
  static constexpr auto cuda_steps_keeping_final() -> decltype(gsdk_batched_steps::cuda_step_keeping_final) {
    if constexpr (HasCudaBatchedStepsKeepingFinal<G>) return &cuda_step_batch_keeping_final;
    return nullptr;
  }
  static int32_t cuda_reset_batch(const gsdk_game_instance* i, void* s, uint32_t count, int32_t device, void* stream,
                                  int32_t* players, uint8_t* legal, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("cuda batched reset", count, {{"states", s}, {"players", players}, {"legal", legal}});
      game(i).cuda_reset_batch(static_cast<State*>(s), count, device, stream, players, legal);
    });
  }
  static constexpr auto cuda_steps() -> decltype(gsdk_batched_steps::cuda_step) {
    if constexpr (HasCudaBatchedSteps<G>) return &cuda_step_batch;
    return nullptr;
  }
  static constexpr auto cuda_resets() -> decltype(gsdk_batched_steps::cuda_reset) {
    if constexpr (HasCudaBatchedSteps<G>) return &cuda_reset_batch;
    return nullptr;
  }

  static int32_t canonical_states(const gsdk_game_instance* i, const void* s, uint32_t count, void* out, char* error,
                                  uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("canonical", count, {{"states", s}, {"out", out}});
      if (count == 0) return;
      if (out != s) std::memcpy(out, s, size_t{count} * sizeof(State));
      State* canonical = static_cast<State*>(out);
      for (uint32_t k = 0; k < count; ++k) game(i).canonical_state(canonical[k]);
    });
  }
  static int32_t cuda_canonical_states(const gsdk_game_instance* i, const void* s, uint32_t count, void* out,
                                       void* stream, char* error, uint32_t error_size) {
    return guarded(error, error_size, [&] {
      require_arrays("cuda_canonical", count, {{"states", s}, {"out", out}});
      if (count != 0) game(i).cuda_canonical_states(states(s), count, static_cast<State*>(out), stream);
    });
  }
  static constexpr auto cuda_perft_keys() -> decltype(gsdk_perft_keys::cuda_canonical) {
    if constexpr (HasCudaPerft<G> && HasCudaPerftKeys<G>) return &cuda_canonical_states;
    return nullptr;
  }

  static const gsdk_game* game_table() {
    static const std::span<const gsdk_param_desc> params = G::parameters();
    static const gsdk_game table = {
        {GSDK_TYPE_GAME, sizeof(gsdk_game)},
        G::kName, G::kDescription, G::kPlayers, G::kFlags, static_cast<uint32_t>(params.size()), 0,
        params.data(), &create, &destroy, &state_size, &max_moves, &score_range, &initial_state,
        &current_player, &legal_moves, &apply_move, &score, &state_to_string, &move_to_string,
        &state_from_string};
    return &table;
  }

  static const void* get_proc(const char* name) {
    if (!name) return nullptr;
    const std::string_view n(name);
    if (n == GSDK_TABLE_GAME) return game_table();
    if constexpr (HasCpuPlayouts<G>) {
      static const gsdk_cpu_playouts cpu = {{GSDK_TYPE_CPU_PLAYOUTS, sizeof(gsdk_cpu_playouts)},
                                            &best_simd_level, &cpu_run};
      if (n == GSDK_TABLE_CPU_PLAYOUTS) return &cpu;
    }
    if constexpr (HasCudaPlayouts<G>) {
      static const gsdk_cuda_playouts cuda = {{GSDK_TYPE_CUDA_PLAYOUTS, sizeof(gsdk_cuda_playouts)},
                                              &cuda_scratch, &cuda_run};
      if (n == GSDK_TABLE_CUDA_PLAYOUTS) return &cuda;
    }
    if constexpr (HasCudaPlayoutBatches<G>) {
      static const gsdk_cuda_playout_batches batches = {
          {GSDK_TYPE_CUDA_PLAYOUT_BATCHES, sizeof(gsdk_cuda_playout_batches)}, &cuda_batches_run};
      if (n == GSDK_TABLE_CUDA_PLAYOUT_BATCHES) return &batches;
    }
    if constexpr (HasReplay<G>) {
      static const gsdk_replay replay_table = {{GSDK_TYPE_REPLAY, sizeof(gsdk_replay)}, &replay};
      if (n == GSDK_TABLE_REPLAY) return &replay_table;
    }
    if constexpr (HasScoreDistribution<G>) {
      static const gsdk_score_distribution distribution = {
          {GSDK_TYPE_SCORE_DISTRIBUTION, sizeof(gsdk_score_distribution)}, &score_distribution};
      if (n == GSDK_TABLE_SCORE_DISTRIBUTION) return &distribution;
    }
    if constexpr (HasCpuPerft<G>) {
      static const gsdk_cpu_perft perft = {{GSDK_TYPE_CPU_PERFT, sizeof(gsdk_cpu_perft)}, &perft_count};
      if (n == GSDK_TABLE_CPU_PERFT) return &perft;
    }
    if constexpr (HasCudaPerft<G>) {
      static const gsdk_cuda_perft perft = {{GSDK_TYPE_CUDA_PERFT, sizeof(gsdk_cuda_perft)},
                                            G::kCudaPerftLeafPlies, 0, &cuda_count_leaves, &cuda_generate_moves,
                                            &cuda_apply_moves, fused_leaf_count_entry()};
      if (n == GSDK_TABLE_CUDA_PERFT) return &perft;
    }
    if constexpr (HasEnvironment<G>) {
      static const gsdk_environment environment = {{GSDK_TYPE_ENVIRONMENT, sizeof(gsdk_environment)}, &env_states,
                                                   &env_actions, &env_agents, &env_step_limit, &env_starts, &env_step};
      static const gsdk_cpu_qlearning cpu = {{GSDK_TYPE_CPU_QLEARNING, sizeof(gsdk_cpu_qlearning)}, &cpu_qlearning};
      if (n == GSDK_TABLE_ENVIRONMENT) return &environment;
      if (n == GSDK_TABLE_CPU_QLEARNING) return &cpu;
    }
    if constexpr (HasCudaQLearning<G>) {
      static const gsdk_cuda_qlearning cuda = {{GSDK_TYPE_CUDA_QLEARNING, sizeof(gsdk_cuda_qlearning)},
                                               &cuda_qlearning_scratch, &cuda_qlearning};
      if (n == GSDK_TABLE_CUDA_QLEARNING) return &cuda;
    }
    if constexpr (HasPolicyImage<G>) {
      static const gsdk_render render = {{GSDK_TYPE_RENDER, sizeof(gsdk_render)}, &policy_image};
      if (n == GSDK_TABLE_RENDER) return &render;
    }
    if constexpr (HasCudaLevel1Searches<G>) {
      static const gsdk_cuda_level1_searches searches = {
          {GSDK_TYPE_CUDA_LEVEL1_SEARCHES, sizeof(gsdk_cuda_level1_searches)}, &max_game_length, &cuda_level1_run,
          StopsCudaLevel1Searches<G> ? &cuda_level1_run_stoppable : nullptr};
      if (n == GSDK_TABLE_CUDA_LEVEL1_SEARCHES) return &searches;
    }
    if constexpr (HasCudaLevel2Searches<G>) {
      static const gsdk_cuda_level2_searches searches = {
          {GSDK_TYPE_CUDA_LEVEL2_SEARCHES, sizeof(gsdk_cuda_level2_searches)}, &cuda_level2_scratch, &cuda_level2_run,
          StopsCudaLevel2Searches<G> ? &cuda_level2_run_stoppable : nullptr};
      if (n == GSDK_TABLE_CUDA_LEVEL2_SEARCHES) return &searches;
    }
    if constexpr (HasCudaNrpaSearches<G>) {
      static const gsdk_cuda_nrpa_searches searches = {
          {GSDK_TYPE_CUDA_NRPA_SEARCHES, sizeof(gsdk_cuda_nrpa_searches)}, &max_game_length, &cuda_nrpa_scratch,
          &cuda_nrpa_run, StopsCudaNrpaSearches<G> ? &cuda_nrpa_run_stoppable : nullptr};
      if (n == GSDK_TABLE_CUDA_NRPA_SEARCHES) return &searches;
    }
    if constexpr (HasMoveCodes<G>) {
      static const gsdk_move_codes codes = {{GSDK_TYPE_MOVE_CODES, sizeof(gsdk_move_codes)}, &code_count, &move_code};
      if (n == GSDK_TABLE_MOVE_CODES) return &codes;
    }
    if constexpr (HasSequenceDocuments<G>) {
      static const gsdk_sequence_documents documents = {
          {GSDK_TYPE_SEQUENCE_DOCUMENTS, sizeof(gsdk_sequence_documents)}, &write_document, &check_sequence};
      if (n == GSDK_TABLE_SEQUENCE_DOCUMENTS) return &documents;
    }
    if constexpr (HasExactStates<G>) {
      static const gsdk_exact_states exact = {{GSDK_TYPE_EXACT_STATES, sizeof(gsdk_exact_states)}, &is_exact,
                                              random_batches()};
      if (n == GSDK_TABLE_EXACT_STATES) return &exact;
    }
    if constexpr (HasEvaluation<G>) {
      static const gsdk_evaluation evaluation = {{GSDK_TYPE_EVALUATION, sizeof(gsdk_evaluation)},
                                                 &evaluation_scale,
                                                 &evaluate_states,
                                                 &state_hash,
                                                 cuda_evaluation()};
      if (n == GSDK_TABLE_EVALUATION) return &evaluation;
    }
    if constexpr (HasObservations<G>) {
      static const gsdk_observations observations = {{GSDK_TYPE_OBSERVATIONS, sizeof(gsdk_observations)},
                                                     &observation_shape, &observation_type, &fill_observations,
                                                     cuda_observations()};
      if (n == GSDK_TABLE_OBSERVATIONS) return &observations;
    }
    if constexpr (HasBatchedSteps<G>) {
      static const gsdk_batched_steps steps = {{GSDK_TYPE_BATCHED_STEPS, sizeof(gsdk_batched_steps)}, &step_batch,
                                               cuda_steps(),
                                               cuda_resets(),
                                               steps_keeping_final(),
                                               cuda_steps_keeping_final()};
      if (n == GSDK_TABLE_BATCHED_STEPS) return &steps;
    }
    if constexpr (HasPerftKeys<G>) {
      static const gsdk_perft_keys keys = {{GSDK_TYPE_PERFT_KEYS, sizeof(gsdk_perft_keys)}, &canonical_states,
                                           cuda_perft_keys()};
      if (n == GSDK_TABLE_PERFT_KEYS) return &keys;
    }
    return nullptr;
  }
};

// The body of gsdk_negotiate for game class G.
template <typename G>
int32_t negotiate(const gsdk_negotiation* request, gsdk_plugin_info* info, const char* version, char* error,
                  uint32_t error_size) {
  if (!request || !info || request->header.type != GSDK_TYPE_NEGOTIATION) {
    copy_message("gsdk_negotiate: malformed negotiation request", error, error_size);
    return GSDK_ERR_INVALID_ARGUMENT;
  }
  if (GSDK_ABI_MAJOR < request->abi_major_min || GSDK_ABI_MAJOR > request->abi_major_max) {
    const std::string message = std::string("plugin '") + G::kName + "' speaks gsdk ABI " +
                                std::to_string(GSDK_ABI_MAJOR) + "." + std::to_string(GSDK_ABI_MINOR) +
                                " but the host accepts majors " + std::to_string(request->abi_major_min) +
                                ".." + std::to_string(request->abi_major_max);
    copy_message(message.c_str(), error, error_size);
    return GSDK_ERR_VERSION;
  }
  const uint32_t writable = info->header.size < sizeof(gsdk_plugin_info) ? info->header.size : sizeof(gsdk_plugin_info);
  gsdk_plugin_info filled = {{GSDK_TYPE_PLUGIN_INFO, writable}, GSDK_ABI_MAJOR, GSDK_ABI_MINOR, G::kName, version,
                             &Adapter<G>::get_proc};
  std::memcpy(info, &filled, writable);
  return GSDK_OK;
}

} // namespace detail
} // namespace gsdk

// Defines the plugin's entry point for rules class GAME.
#define GSDK_PLUGIN(GAME, VERSION)                                                                     \
  extern "C" GSDK_EXPORT int32_t gsdk_negotiate(const gsdk_negotiation* request, gsdk_plugin_info* info, \
                                                char* error, uint32_t error_size) {                     \
    return ::gsdk::detail::negotiate<GAME>(request, info, VERSION, error, error_size);                  \
  }
