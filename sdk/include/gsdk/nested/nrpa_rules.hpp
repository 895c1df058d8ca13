// nrpa_rules.hpp - NrpaRules, what a game adds to NmcsRules for the SDK's NRPA searches on the GPU
// (gsdk/nested/cuda_nrpa_searches.cuh): move codes, and a per-step record the game chooses, so that a search
// keeps its sequences as records and adapts a policy to one without replaying it.
//
// The members, each GSDK_HD (P is the PlayoutPosition):
//   static constexpr uint32_t kMaxMoves;          the most legal moves of one state (sizes the code arrays)
//   static constexpr bool kDistinctStepCodes;     true when no code is legal at two steps of one game's sequence
//                                                 (snake: a code names the head vertex, visited once); the
//                                                 adaptation then adds each step's deltas in place, else it
//                                                 keeps them in a per-search buffer in scratch until the last
//                                                 step (gsdk/nrpa/adaptation.hpp says why both are exact)
//   using Step = ...;                             trivially copyable, aligned to at most 8 bytes (snake: one
//                                                 word holding the head vertex, the legal moves and the move)
//   uint32_t code_count() const;                  every code is below it: the move_codes table's code_count
//   PlayoutPosition initial(StridedWords slot) const;            the initial state, in slot
//   uint32_t move_codes(const P& p, Moves legal, uint32_t* codes) const;  the codes of p's legal moves in
//                                                 legal_moves order, as the move_codes table gives them;
//                                                 returns how many
//   Step step(const P& p, Moves legal, uint32_t move) const;    the record of playing `move` at p
//   uint32_t step_codes(const Step& s, uint32_t* codes) const;   move_codes of the step's position
//   uint32_t played_code(const Step& s) const;                   the code of the move played
//   uint32_t played_move(const Step& s) const;                   the move played
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "gsdk/nested/nmcs_rules.hpp"

namespace gsdk::nested {

template <typename R>
concept NrpaRules = NmcsRules<R> && std::is_trivially_copyable_v<typename R::Step> && alignof(typename R::Step) <= 8 &&
                    requires(const R rules, StridedWords slot, const typename R::PlayoutPosition& playout,
                             const typename R::Moves moves, const typename R::Step& step, uint32_t move,
                             uint32_t* codes) {
  { R::kMaxMoves } -> std::convertible_to<uint32_t>;
  { R::kDistinctStepCodes } -> std::convertible_to<bool>;
  { rules.code_count() } -> std::same_as<uint32_t>;
  { rules.initial(slot) } -> std::same_as<typename R::PlayoutPosition>;
  { rules.move_codes(playout, moves, codes) } -> std::same_as<uint32_t>;
  { rules.step(playout, moves, move) } -> std::same_as<typename R::Step>;
  { rules.step_codes(step, codes) } -> std::same_as<uint32_t>;
  { rules.played_code(step) } -> std::same_as<uint32_t>;
  { rules.played_move(step) } -> std::same_as<uint32_t>;
};

} // namespace gsdk::nested
