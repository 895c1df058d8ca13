// game_instance.hpp - an instantiated game (parameters applied) with C++ access to its per-state table.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::core {

using StateBlob = std::vector<unsigned char>;

class GameInstance {
public:
  // Values must hold one entry per declared parameter, in declaration order.
  GameInstance(const PluginTables& tables, std::vector<gsdk_param_value> values);
  ~GameInstance();
  GameInstance(const GameInstance&) = delete;
  GameInstance& operator=(const GameInstance&) = delete;

  const PluginTables& tables() const { return tables_; }
  const gsdk_game& game() const { return *tables_.game; }
  const gsdk_game_instance* handle() const { return handle_; }
  // The parameter values it was made with, one per declared parameter (string values point into the
  // creator's storage).
  const std::vector<gsdk_param_value>& values() const { return values_; }

  uint32_t state_size() const { return state_size_; }
  uint32_t max_moves() const { return max_moves_; }
  std::pair<int64_t, int64_t> score_range() const { return score_range_; }
  uint32_t histogram_bins() const { return static_cast<uint32_t>(score_range_.second - score_range_.first + 1); }

  StateBlob initial_state() const;
  int32_t current_player(const StateBlob& s) const { return current_player(s.data()); }
  int32_t current_player(const unsigned char* s) const { return game().current_player(handle_, s); }
  uint32_t legal_moves(const StateBlob& s, uint32_t* moves, double* probabilities) const {
    return game().legal_moves(handle_, s.data(), moves, probabilities);
  }
  // The legal moves into `moves` (at least max_moves() entries); throws std::runtime_error naming the
  // game when it reports more moves than its max_moves.
  uint32_t checked_legal_moves(const StateBlob& s, std::vector<uint32_t>& moves) const;
  // Throws std::runtime_error naming the game and the state unless 1 <= n <= max_moves(): what a move
  // count of a state that is not terminal must be (a plugin that breaks this is broken).
  void require_moves_in_live_state(const StateBlob& s, uint32_t n) const;
  void apply_move(StateBlob& s, uint32_t move) const { apply_move(s.data(), move); }
  // On a state of state_size() bytes in place (e.g. inside a tree's state array).
  void apply_move(unsigned char* s, uint32_t move) const { game().apply_move(handle_, s, move); }
  int64_t score(const StateBlob& s) const { return score(s.data()); }
  int64_t score(const unsigned char* s) const { return game().score(handle_, s); }
  // Whether playouts from the non-terminal state `s` report its exact outcome (the plugin's
  // gsdk.exact_states.v1 table; false without one).
  bool is_exact(const unsigned char* s) const {
    return tables_.exact_states && tables_.exact_states->is_exact(handle_, s) != 0;
  }
  // Whether the game gives canonical states for hashed perft (its gsdk.perft_keys.v1 table).
  bool has_canonical_states() const { return tables_.perft_keys != nullptr; }
  // out[k] = the canonical form of states[k] for k < count (state_size() bytes each; out may equal states, not
  // overlap it otherwise): a state of the same perft counts at every depth, equal for states that differ only in
  // bytes that never change a subtree. A byte copy when the game has no table. Throws std::runtime_error naming the
  // plugin, the table and the plugin's message when the plugin's call fails.
  void canonical_states(const unsigned char* states, uint32_t count, unsigned char* out) const;
  std::string state_to_string(const StateBlob& s) const;
  std::string move_to_string(const StateBlob& s, uint32_t move) const;
  // Throws std::invalid_argument with the plugin's message.
  StateBlob state_from_string(const std::string& text) const;

private:
  const PluginTables& tables_;
  std::vector<gsdk_param_value> values_;
  gsdk_game_instance* handle_ = nullptr;
  uint32_t state_size_ = 0;
  uint32_t max_moves_ = 0;
  std::pair<int64_t, int64_t> score_range_{0, 0};
};

} // namespace gsdk::core
