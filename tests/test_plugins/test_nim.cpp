// test_nim.cpp - a tiny two-player game for the tests: players alternately take 1..max_take stones
// from one pile; whoever takes the last stone wins (loses when misere). Per-state table only, so the
// host's generic engine and the conformance suite's two-player paths get exercised by something
// other than graveler. Score: player 0's outcome, +1 or -1.
#include <cstdio>
#include <string>

#include "gsdk/plugin.hpp"

namespace test_nim {

struct State {
  int32_t stones;
  int32_t to_move; // 0 or 1
};

const gsdk_param_desc kParameters[] = {
    {"stones", GSDK_PARAM_INT, 0, 21, 0.0, nullptr, 1, 1000, "stones on the pile at the start"},
    {"max_take", GSDK_PARAM_INT, 0, 3, 0.0, nullptr, 1, 16, "most stones one move may take"},
    {"misere", GSDK_PARAM_BOOL, 0, 0, 0.0, nullptr, 0, 1, "whoever takes the last stone loses"},
    {"broken_at", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, 1000,
     "a broken plugin for the tests: no legal moves when the pile holds exactly this many stones (0: never)"},
};

class Game {
public:
  using State = test_nim::State;
  static constexpr const char* kName = "test_nim";
  static constexpr const char* kDescription = "test game: take 1..max_take stones, last stone wins";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters() { return kParameters; }
  explicit Game(const gsdk::Params& params)
      : stones_(static_cast<int32_t>(params.get_int("stones"))),
        max_take_(static_cast<int32_t>(params.get_int("max_take"))), misere_(params.get_bool("misere")),
        broken_at_(static_cast<int32_t>(params.get_int("broken_at"))) {
    if (stones_ < 1 || max_take_ < 1) throw gsdk::PluginError("stones and max_take must be positive");
  }

  uint32_t max_moves() const { return static_cast<uint32_t>(max_take_); }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const { s = State{stones_, 0}; }
  int32_t current_player(const State& s) const { return s.stones == 0 ? GSDK_PLAYER_TERMINAL : s.to_move; }
  uint32_t legal_moves(const State& s, uint32_t* moves, double*) const {
    if (s.stones == broken_at_) return 0;
    const int32_t n = s.stones < max_take_ ? s.stones : max_take_;
    for (int32_t k = 0; k < n; ++k) moves[k] = static_cast<uint32_t>(k + 1);
    return static_cast<uint32_t>(n);
  }
  void apply_move(State& s, uint32_t take) const {
    s.stones -= static_cast<int32_t>(take);
    s.to_move = 1 - s.to_move;
  }
  int64_t score(const State& s) const {
    const int32_t last_mover = 1 - s.to_move;
    const int32_t winner = misere_ ? 1 - last_mover : last_mover;
    return winner == 0 ? 1 : -1;
  }
  std::string state_to_string(const State& s) const {
    return "stones=" + std::to_string(s.stones) + " to_move=" + std::to_string(s.to_move);
  }
  std::string move_to_string(const State&, uint32_t take) const { return "take" + std::to_string(take); }
  State state_from_string(std::string_view text) const {
    const std::string copy(text);
    int stones = -1, to_move = -1;
    char extra = 0;
    if (std::sscanf(copy.c_str(), " stones=%d to_move=%d %c", &stones, &to_move, &extra) != 2 || stones < 0 ||
        stones > stones_ || (to_move != 0 && to_move != 1))
      throw gsdk::PluginError("test_nim state '" + copy + "': expected 'stones=N to_move=0|1' with N <= " +
                              std::to_string(stones_));
    return State{stones, to_move};
  }

private:
  int32_t stones_;
  int32_t max_take_;
  bool misere_;
  int32_t broken_at_;
};

} // namespace test_nim

GSDK_PLUGIN(test_nim::Game, "0.1.0")
