// gtp_engine.hpp - the Go Text Protocol (version 2) as Othello GUIs speak it, over any two-player
// game: black is player 0, white player 1, vertices are the game's move names (matched without regard
// to case), and the game's move named "pass" is what a side with nothing else to do plays.
//
// Commands: protocol_version, name, version, known_command, list_commands, quit, boardsize (the game's own
// size, or any size of its board_size parameter's range: the game is made again with it), clear_board, komi (accepted
// and ignored), play, genmove, undo, showboard, final_score, time_settings, time_left, kgs-time_settings
// (gtp_clock.hpp: genmove then gives the agent the clock's budget for the move). A side with no move but a pass passes
// implicitly when the other side is told to move; `undo` takes back one play or genmove, with the pass it implied.
// `play` tells a word that cannot be a move of the game (a syntax error) from a move that cannot be played now (an
// illegal move, with the reason); a pass on a finished game changes nothing, as genmove's there. Responses are "=[id]
// result" or "?[id] message", each ended by a blank line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <functional>
#include <memory>

#include "gsdk/core/agents/agents.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "play/agent_game.hpp"
#include "play/gtp_clock.hpp"
#include "plugin_loading/game_params.hpp"

namespace gsdk::host {

// The size `boardsize` accepts. The ABI has no board-size field, so a game states its size in one of two
// ways, tried in this order (docs/user_guide.md, GTP):
//  1. an integer parameter named `board_size`: its value in this session;
//  2. a square board at the start of its state text (gtp_board.hpp: n*n cells, or n rows of n separated by '/'):
//     n.
// A game that does neither has no GTP board size (nullopt).
struct GtpBoardSize {
  std::optional<uint32_t> size;
  std::string source; // where it comes from, for messages: "its board_size parameter", ...
  std::optional<std::pair<double, double>> parameter_range; // (1): the sizes the game accepts
};

GtpBoardSize gtp_board_size(const core::GameInstance& game);

// The game the engine plays and the agent that plays it, made together (the agent searches the game).
struct GtpGame {
  ResolvedParams params; // owns the strings the game's parameter values point to
  std::unique_ptr<core::GameInstance> game;
  std::unique_ptr<AgentGame> agent_game;
  std::unique_ptr<core::Agent> agent;
};

// Makes the game again with its board_size parameter set to the size given (the other parameters and the agent
// as they were); throws std::exception naming what the game refuses.
using GtpGameMaker = std::function<GtpGame(uint32_t board_size)>;

class GtpEngine {
public:
  // `remake`, for a game with a board_size parameter: what `boardsize n` calls for another size in the parameter's
  // range, so that a controller's boardsize works as GTP means it (a new game on that board).
  GtpEngine(GtpGame game, GtpBoardSize board, uint64_t seed, GtpGameMaker remake = {});

  // The whole response to one input line, blank-line terminated; empty for a line GTP ignores (blank,
  // or only a comment).
  std::string handle(const std::string& line);
  bool quit_requested() const { return quit_; }

private:
  struct Reply {
    bool ok = true;
    std::string text;
  };

  Reply execute(const std::string& command, const std::vector<std::string>& args);
  Reply play(const std::vector<std::string>& args);
  Reply genmove(const std::vector<std::string>& args);
  Reply final_score() const;
  // Plays `move` for everyone to see (the agent too).
  void apply(uint32_t move);
  // Adds the forms of the current state's legal moves' names to move_forms_.
  void learn_move_forms();
  // The syntax error for `text` when it is neither pass nor of the form of a move the game has listed.
  std::optional<std::string> unparseable_move(const std::string& text) const;
  // The moves `player` is expected still to play: the mean of a few random playouts from here.
  double expected_moves_left(int32_t player) const;
  // Brings `player` to move by playing the other side's forced pass, when that is what it must do.
  bool bring_to_move(int32_t player);
  // The legal move named `name` (any case), if there is one.
  bool find_move(const std::string& name, uint32_t& move) const;
  // The answer to `boardsize n`.
  Reply boardsize(uint32_t n);

  // Starts a game on the initial state: history and the agent's memory forgotten.
  void new_game();

  GtpGame played_;
  const core::GameInstance* game_; // played_'s game and agent
  core::Agent* agent_;
  GtpGameMaker remake_;
  GtpBoardSize board_;
  uint64_t seed_;
  core::StateBlob state_;
  std::vector<core::StateBlob> history_; // states before each play and genmove, for undo
  // The forms of the move names the game has listed in this session ("a0" for d3), each with an example name: what
  // a move can look like, so that a word of no such form is refused as unparseable rather than illegal.
  std::map<std::string, std::string> move_forms_;
  GtpClock clock_;
  bool quit_ = false;
};

} // namespace gsdk::host
