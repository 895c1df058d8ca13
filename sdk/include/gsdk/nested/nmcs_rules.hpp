// nmcs_rules.hpp - a game's rules on the GPU, as the SDK's device templates take them: a few __host__ __device__
// members of one small, trivially copyable object (a kernel argument), over positions the game lays out itself.
// Two concepts, one extending the other (nrpa_rules.hpp's NrpaRules extends NmcsRules in turn):
//  - PlayoutRules: enough to play random games and walk the move tree: the SDK's playout summaries and playout
//    batches (gsdk/cuda/playout_tables.cuh) and, where positions are the states themselves, the breadth-first
//    perft kernels (gsdk/cuda/perft_tables.cuh);
//  - NmcsRules: what the nested Monte Carlo searches add (gsdk/nested/cuda_level1_searches.cuh,
//    cuda_level2_searches.cuh): search positions copied into scratch.
// A game whose positions are small enough for registers takes the position members from StatePositions
// (gsdk/nested/state_positions.hpp) and writes only the rules.
//
// A search keeps two kinds of position, and the game chooses how each is stored:
//  - a search position (SearchPosition): the state a search walks, in global memory (read once per child and
//    written once per step), plus whatever the game keeps in registers; for a level-1 search it is a view of
//    the state blob itself, which the search may overwrite; a level-2 search keeps two in scratch, of
//    search_words() 64-bit words each;
//  - a playout position (PlayoutPosition): a child's copy, where its playout runs, viewed over the thread's
//    workspace_words() 32-bit words of shared memory (a StridedWords slot: word w at slot[w]).
// A small game may keep either wholly in registers and ask for 0 words.
//
// The members, each GSDK_HD unless said otherwise (R is the rules type, P either position type); those marked
// (NMCS) are NmcsRules' only:
//   using State = ...;                      the game's state blob (the ABI's states)
//   using SearchPosition, PlayoutPosition;  small value types (a pointer and registers, or the state itself)
//   using Moves = ...;                      a set of legal moves: empty(), first() (the first in the per-state
//                                           table's legal_moves order), without_first(); BitMoves fits games of
//                                           up to 32 moves a state
//   static constexpr const char* kOwner;    names the plugin in failures ("snake CUDA")
//   uint32_t max_game_length() const;       (NMCS) the most moves a game lasts (the stride of the tables' `moves`)
//   uint32_t workspace_words() const;       32-bit words of shared memory a playout position needs (0: none)
//   uint32_t search_words() const;          (NMCS) 64-bit words of global memory a copied search position needs
//   SearchPosition search_position(State& s) const;                       a view of s (s may be written; the
//                                                                         playout templates only load() it)
//   SearchPosition copy_state(const State& s, uint64_t* words) const;     (NMCS) s copied into words
//   SearchPosition copy_position(const SearchPosition& p, uint64_t* words) const;  (NMCS) p copied into words
//   PlayoutPosition load(const SearchPosition& p, StridedWords slot) const;        p copied into slot
//   Moves legal_moves(const P& p) const;    empty exactly when p is terminal
//   void play(P& p, uint32_t move) const;   plays a legal move
//   int64_t score(const P& p) const;        the per-state table's score (of a terminal position: a playout's
//                                           result, and what NMCS maximises)
//   template <class Log> void playout(PlayoutPosition& p, uint64_t seed, uint64_t stream, Log log) const;
//       plays p to its end exactly as the plugin's CPU batch table plays playout `stream` of `seed` from that
//       state, calling log(move) after every move: core's CPU NMCS and the GPU then find identical sequences.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "gsdk/hd.hpp"
#include "gsdk/nested/strided_words.hpp"

namespace gsdk::nested {

// The log of a playout whose moves nobody keeps.
struct NoMoveLog {
  GSDK_HD void operator()(uint32_t) const {}
};

// What playouts and the move tree need: the position a playout runs in, loaded from a state.
template <typename R>
concept PlayoutRules = std::is_trivially_copyable_v<R> &&
    requires(const R rules, typename R::State& state, typename R::SearchPosition search,
             const typename R::SearchPosition& const_search, typename R::PlayoutPosition playout,
             const typename R::PlayoutPosition& const_playout, const typename R::Moves moves, StridedWords slot,
             uint32_t move, uint64_t seed) {
  { R::kOwner } -> std::convertible_to<const char*>;
  { rules.workspace_words() } -> std::same_as<uint32_t>;
  { rules.search_position(state) } -> std::same_as<typename R::SearchPosition>;
  { rules.load(const_search, slot) } -> std::same_as<typename R::PlayoutPosition>;
  { rules.legal_moves(const_search) } -> std::same_as<typename R::Moves>;
  { rules.legal_moves(const_playout) } -> std::same_as<typename R::Moves>;
  rules.play(search, move);
  rules.play(playout, move);
  { rules.score(const_search) } -> std::same_as<int64_t>;
  { rules.score(const_playout) } -> std::same_as<int64_t>;
  rules.playout(playout, seed, seed, NoMoveLog{});
  { moves.empty() } -> std::same_as<bool>;
  { moves.first() } -> std::same_as<uint32_t>;
  { moves.without_first() } -> std::same_as<typename R::Moves>;
};

// What the nested searches add: search positions copied into global scratch.
template <typename R>
concept NmcsRules = PlayoutRules<R> && requires(const R rules, const typename R::State& const_state,
                                                const typename R::SearchPosition& const_search, uint64_t* words) {
  { rules.max_game_length() } -> std::same_as<uint32_t>;
  { rules.search_words() } -> std::same_as<uint32_t>;
  { rules.copy_state(const_state, words) } -> std::same_as<typename R::SearchPosition>;
  { rules.copy_position(const_search, words) } -> std::same_as<typename R::SearchPosition>;
};

} // namespace gsdk::nested
