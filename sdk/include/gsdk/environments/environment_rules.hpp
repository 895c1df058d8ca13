// environment_rules.hpp - a game's vectorised environment (gsdk.batched_steps.v1, gsdk.observations.v1) as the SDK's
// templates take it: the CPU batch loops (gsdk/environments/batched_steps.hpp) and the CUDA kernels
// (gsdk/cuda/environment_tables.cuh) both play one game's step through these members, so they agree by
// construction, and the SDK, not each game, writes the ABI's step semantics (rewards, the restart, final states).
// A small, trivially copyable object of __host__ __device__ members (a kernel argument, carrying the instance's
// parameters), usually the same object as the game's PlayoutRules (gsdk/nested/nmcs_rules.hpp):
//   using State = ...;                               the game's state blob
//   static constexpr const char* kOwner;             names the plugin in device failures ("othello CUDA")
//   static constexpr uint32_t kCodeCount;            the move codes 0..kCodeCount-1 (gsdk.move_codes.v1)
//   static constexpr uint32_t kPlayerCount;          1 or 2: how many rewards a step writes
//   static constexpr uint32_t kObservationBytes;     the bytes of one state's observation
//   State initial_state() const;                     where every game starts and restarts
//   bool play_code(State& s, uint32_t code) const;   plays the legal move whose code is `code` in the non-terminal
//                                                    s and returns true; false (s untouched) when none has it. A
//                                                    game with forced passes plays them here, so s is left with a
//                                                    mover who has a move, or over
//   bool ended(const State& s) const;                whether s is terminal
//   int64_t score(const State& s) const;             the per-state table's score of a terminal s
//   int32_t player_to_move(const State& s) const;    of a non-terminal s
//   void write_legal_codes(const State& s, uint8_t* row) const;  row[c] = 1 for the codes of s's legal moves, else 0
//                                                    (kCodeCount bytes)
//   void write_observation(const State& s, uint8_t* out) const;  the observation's kObservationBytes bytes (the
//                                                    game's element type, GSDK_ELEMENT_*, laid out as its shape says)
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace gsdk::environments {

template <typename R>
concept EnvironmentRules = std::is_trivially_copyable_v<R> &&
    requires(const R rules, typename R::State& state, const typename R::State& const_state, uint32_t code,
             uint8_t* row) {
  { R::kOwner } -> std::convertible_to<const char*>;
  { R::kCodeCount } -> std::convertible_to<uint32_t>;
  { R::kPlayerCount } -> std::convertible_to<uint32_t>;
  { R::kObservationBytes } -> std::convertible_to<uint32_t>;
  { rules.initial_state() } -> std::same_as<typename R::State>;
  { rules.play_code(state, code) } -> std::same_as<bool>;
  { rules.ended(const_state) } -> std::same_as<bool>;
  { rules.score(const_state) } -> std::same_as<int64_t>;
  { rules.player_to_move(const_state) } -> std::same_as<int32_t>;
  rules.write_legal_codes(const_state, row);
  rules.write_observation(const_state, row);
};

} // namespace gsdk::environments
