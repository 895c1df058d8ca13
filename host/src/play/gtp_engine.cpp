// gtp_engine.cpp - GTP v2 parsing, the commands and their responses.
#include "play/gtp_engine.hpp"

#include <algorithm>
#include <cctype>
#include <random>
#include <sstream>

#include <chrono>

#include <fmt/format.h>

#include "play/gtp_board.hpp"

namespace gsdk::host {

namespace {

// Exactly the commands execute() answers: list_commands and known_command read this list.
const std::vector<std::string> kCommands = {"boardsize",
                                            "clear_board",
                                            "final_score",
                                            "genmove",
                                            "kgs-time_settings",
                                            "known_command",
                                            "komi",
                                            "list_commands",
                                            "name",
                                            "play",
                                            "protocol_version",
                                            "quit",
                                            "showboard",
                                            "time_left",
                                            "time_settings",
                                            "undo",
                                            "version"};

// Random playouts that estimate how many moves a side has left (cheap: per-state rules, a few games).
constexpr int kLengthPlayouts = 8;
constexpr int kMaxPlayoutPlies = 2000; // a game longer than this is planned as this long

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// GTP's preprocessing: control characters other than tab and newline dropped, tabs become spaces,
// comments (from '#') removed.
std::string preprocess(const std::string& line) {
  std::string out;
  for (char ch : line) {
    if (ch == '#') break;
    if (ch == '\t')
      out += ' ';
    else if (static_cast<unsigned char>(ch) >= 32 && ch != 127)
      out += ch;
  }
  return out;
}

// -1 for text that is not a colour.
int32_t player_of_colour(const std::string& text) {
  const std::string c = lower(text);
  if (c == "b" || c == "black") return 0;
  if (c == "w" || c == "white") return 1;
  return -1;
}

// The form of a move name: each run of letters written "a", each run of digits "0", the rest kept ("d3" and "h8"
// are "a0", "take12" is "a0"). A word of no form the game has listed cannot be one of its moves.
std::string move_form(const std::string& name) {
  std::string form;
  for (const unsigned char c : name) {
    const char kind = std::isalpha(c) ? 'a' : std::isdigit(c) ? '0' : static_cast<char>(c);
    if (form.empty() || form.back() != kind || (kind != 'a' && kind != '0')) form += kind;
  }
  return form;
}

std::string colour_name(int32_t player) {
  return player == 0 ? "black" : "white";
}

} // namespace

GtpBoardSize gtp_board_size(const core::GameInstance& game) {
  const gsdk_game& g = game.game();
  for (uint32_t i = 0; i < g.param_count; ++i) {
    const gsdk_param_desc& d = g.params[i];
    if (d.type != GSDK_PARAM_INT || std::string(d.name) != "board_size") continue;
    const int64_t value = game.values().at(i).int_value;
    if (value < 1 || value > 1000000) break;
    return {static_cast<uint32_t>(value), "its board_size parameter", std::pair{d.min_value, d.max_value}};
  }
  std::istringstream text(game.state_to_string(game.initial_state()));
  std::string first_word;
  text >> first_word;
  // GTP's boardsize N is an N x N board: a board of another shape states no size.
  if (const auto grid = gtp_grid(first_word); grid && grid->width == grid->height)
    return {grid->width, fmt::format("its state text, a board of {0}x{0} cells", grid->width), {}};
  return {};
}

GtpEngine::GtpEngine(GtpGame game, GtpBoardSize board, uint64_t seed, GtpGameMaker remake)
    : played_(std::move(game)), game_(played_.game.get()), agent_(played_.agent.get()), remake_(std::move(remake)),
      board_(std::move(board)), seed_(seed) {
  new_game();
}

void GtpEngine::new_game() {
  state_ = game_->initial_state();
  history_.clear();
  agent_->new_game(seed_);
  learn_move_forms();
}

GtpEngine::Reply GtpEngine::boardsize(uint32_t n) {
  const std::string game = game_->game().name;
  if (!board_.size)
    return {false, fmt::format("unacceptable size: {} states no board size (no board_size parameter, no square board "
                               "in its state text); start the engine with --board-size {} to accept this one",
                               game, n)};
  if (n != *board_.size) {
    const std::string refusal =
        fmt::format("unacceptable size: {} plays on a board of size {} here ({})", game, *board_.size, board_.source);
    if (!board_.parameter_range || !remake_) return {false, refusal};
    const auto [lo, hi] = *board_.parameter_range;
    if (n < lo || n > hi) return {false, fmt::format("{}; its board_size is from {} to {}", refusal, lo, hi)};
    // The game made again with board_size n; the old one (and its agent) goes once the new one is in place.
    GtpGame next;
    try {
      next = remake_(n);
    } catch (const std::exception& e) {
      return {false, fmt::format("{}; board_size {} is refused: {}", refusal, n, e.what())};
    }
    std::swap(played_, next);
    game_ = played_.game.get();
    agent_ = played_.agent.get();
    board_.size = n;
    move_forms_.clear(); // another board: other move names (its points)
  }
  new_game();
  return {};
}

std::string GtpEngine::handle(const std::string& line) {
  std::istringstream words(preprocess(line));
  std::vector<std::string> tokens;
  for (std::string w; words >> w;) tokens.push_back(w);
  if (tokens.empty()) return "";
  std::string id;
  if (std::all_of(tokens[0].begin(), tokens[0].end(), [](unsigned char c) { return std::isdigit(c); })) {
    id = tokens[0];
    tokens.erase(tokens.begin());
    if (tokens.empty()) return "?" + id + " missing command\n\n";
  }
  const std::string command = tokens[0];
  tokens.erase(tokens.begin());
  Reply reply;
  try {
    reply = execute(command, tokens);
  } catch (const std::exception& e) {
    reply = {false, e.what()};
  }
  // A response never holds an empty line: that would end it early.
  std::string text;
  std::istringstream lines(reply.text);
  for (std::string row; std::getline(lines, row);)
    if (row.find_first_not_of(" \r") != std::string::npos) text += (text.empty() ? "" : "\n") + row;
  if (reply.text.starts_with('\n') && !text.empty()) text = "\n" + text;
  return (reply.ok ? "=" : "?") + id + " " + text + "\n\n";
}

GtpEngine::Reply GtpEngine::execute(const std::string& command, const std::vector<std::string>& args) {
  if (command == "protocol_version") return {true, "2"};
  if (command == "name") return {true, "gsdk"};
  if (command == "version") return {true, GSDK_VERSION};
  if (command == "known_command")
    return {true, !args.empty() && std::find(kCommands.begin(), kCommands.end(), args[0]) != kCommands.end() ? "true"
                                                                                                             : "false"};
  if (command == "list_commands") {
    std::string text;
    for (const auto& c : kCommands) text += (text.empty() ? "" : "\n") + c;
    return {true, text};
  }
  if (command == "quit") {
    quit_ = true;
    return {};
  }
  if (command == "boardsize") {
    if (args.size() != 1 || args[0].find_first_not_of("0123456789") != std::string::npos || args[0].size() > 6)
      return {false, "syntax error"};
    return boardsize(static_cast<uint32_t>(std::stoul(args[0])));
  }
  if (command == "clear_board") {
    new_game();
    return {};
  }
  if (command == "komi") {
    if (args.size() != 1) return {false, "syntax error"};
    try {
      size_t used = 0;
      std::stod(args[0], &used);
      if (used != args[0].size()) return {false, "syntax error"};
    } catch (const std::exception&) {
      return {false, "syntax error"};
    }
    return {};
  }
  if (command == "play") return play(args);
  if (command == "genmove") return genmove(args);
  if (command == "undo") {
    if (!args.empty()) return {false, "syntax error: undo takes no arguments"};
    if (history_.empty()) return {false, "cannot undo"};
    state_ = history_.back();
    history_.pop_back();
    return {};
  }
  if (command == "showboard") return {true, "\n" + gtp_board_picture(game_->state_to_string(state_))};
  if (command == "time_settings") {
    if (args.size() != 3) return {false, "syntax error: time_settings expects main_time byo_yomi_time byo_yomi_stones"};
    if (auto error = clock_.time_settings(args[0], args[1], args[2])) return {false, *error};
    return {};
  }
  if (command == "kgs-time_settings") {
    if (auto error = clock_.kgs_time_settings(args)) return {false, *error};
    return {};
  }
  if (command == "time_left") {
    if (args.size() != 3 || player_of_colour(args[0]) < 0)
      return {false, "syntax error: time_left expects a colour (b, w, black, white), seconds and stones"};
    if (auto error = clock_.time_left(player_of_colour(args[0]), args[1], args[2])) return {false, *error};
    return {};
  }
  if (command == "final_score") return final_score();
  return {false, fmt::format("unknown command '{}' (list_commands lists the commands)", command)};
}

bool GtpEngine::find_move(const std::string& name, uint32_t& move) const {
  std::vector<uint32_t> legal(game_->max_moves());
  const uint32_t n = game_->checked_legal_moves(state_, legal);
  const std::string wanted = lower(name);
  for (uint32_t k = 0; k < n; ++k) {
    if (lower(game_->move_to_string(state_, legal[k])) != wanted) continue;
    move = legal[k];
    return true;
  }
  return false;
}

void GtpEngine::apply(uint32_t move) {
  agent_->observe_move(state_, move);
  game_->apply_move(state_, move);
  learn_move_forms();
}

void GtpEngine::learn_move_forms() {
  if (game_->current_player(state_) == GSDK_PLAYER_TERMINAL) return;
  std::vector<uint32_t> legal(game_->max_moves());
  const uint32_t n = game_->checked_legal_moves(state_, legal);
  for (uint32_t k = 0; k < n; ++k) {
    const std::string name = lower(game_->move_to_string(state_, legal[k]));
    move_forms_.emplace(move_form(name), name);
  }
}

std::optional<std::string> GtpEngine::unparseable_move(const std::string& text) const {
  if (lower(text) == "pass" || move_forms_.count(move_form(lower(text)))) return std::nullopt;
  std::string examples;
  size_t shown = 0;
  for (auto it = move_forms_.begin(); it != move_forms_.end() && shown < 3; ++it, ++shown)
    examples += (examples.empty() ? "" : ", ") + it->second;
  return fmt::format("syntax error: cannot parse move '{}' ({}'s moves are written like {}; or pass)", text,
                     game_->game().name, examples);
}

bool GtpEngine::bring_to_move(int32_t player) {
  const int32_t to_move = game_->current_player(state_);
  if (to_move == player) return true;
  if (to_move == GSDK_PLAYER_TERMINAL || to_move == GSDK_PLAYER_CHANCE) return false;
  std::vector<uint32_t> legal(game_->max_moves());
  if (game_->checked_legal_moves(state_, legal) != 1 || lower(game_->move_to_string(state_, legal[0])) != "pass")
    return false;
  apply(legal[0]);
  return game_->current_player(state_) == player;
}

// One rule for pass, as GTP has it: `pass` is always a move of the protocol. On a finished game both `play COLOUR
// pass` and `genmove` are a pass that changes nothing (a controller ends a game with passes), and any other move is
// illegal. While the game goes on, a pass is a move like the others: legal only where the game lists its move named
// "pass" (Othello's side with no disc to play), so a game without a pass move never passes before its end.
GtpEngine::Reply GtpEngine::play(const std::vector<std::string>& args) {
  if (args.size() != 2) return {false, "syntax error: play expects a colour and a move, e.g. play b d3"};
  const int32_t player = player_of_colour(args[0]);
  if (player < 0) return {false, fmt::format("syntax error: '{}' is not a colour (b, w, black, white)", args[0])};
  // A word that cannot be a move of this game is a syntax error; a move of the game that cannot be played now is an
  // illegal move, with the reason.
  if (auto problem = unparseable_move(args[1])) return {false, *problem};
  const int32_t to_move = game_->current_player(state_);
  if (to_move == GSDK_PLAYER_TERMINAL) {
    if (lower(args[1]) == "pass") return {};
    return {false, fmt::format("illegal move: {} {} (the game is over)", args[0], args[1])};
  }
  const core::StateBlob before = state_;
  if (!bring_to_move(player)) {
    state_ = before;
    const std::string why = to_move >= 0 ? fmt::format("it is {}'s turn", colour_name(to_move)) : "not legal now";
    return {false, fmt::format("illegal move: {} {} ({})", args[0], args[1], why)};
  }
  uint32_t move = 0;
  if (!find_move(args[1], move)) {
    // Undoes an inserted pass too: a refused play changes nothing.
    state_ = before;
    return {false, fmt::format("illegal move: {} {} (not legal in this position)", args[0], args[1])};
  }
  apply(move);
  history_.push_back(before);
  return {};
}

GtpEngine::Reply GtpEngine::genmove(const std::vector<std::string>& args) {
  if (args.size() != 1) return {false, "syntax error: genmove expects a colour, e.g. genmove b"};
  const int32_t player = player_of_colour(args[0]);
  if (player < 0) return {false, fmt::format("syntax error: '{}' is not a colour (b, w, black, white)", args[0])};
  if (game_->current_player(state_) == GSDK_PLAYER_TERMINAL) return {true, "pass"};
  const core::StateBlob before = state_;
  if (!bring_to_move(player)) {
    state_ = before;
    return {false, fmt::format("it is not {}'s turn", colour_name(player))};
  }
  const auto began = std::chrono::steady_clock::now();
  const double moves_left = clock_.counts_moves(player) ? expected_moves_left(player) : 1;
  agent_->set_move_time(clock_.move_budget(player, moves_left).value_or(0));
  const uint32_t move = agent_->choose_move(state_);
  const std::string name = game_->move_to_string(state_, move);
  apply(move);
  history_.push_back(before);
  clock_.charge(player, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
  return {true, name};
}

double GtpEngine::expected_moves_left(int32_t player) const {
  std::mt19937_64 random(seed_ ^ history_.size());
  std::vector<uint32_t> legal(game_->max_moves());
  uint64_t moves = 0;
  for (int p = 0; p < kLengthPlayouts; ++p) {
    core::StateBlob state = state_;
    for (int ply = 0; ply < kMaxPlayoutPlies; ++ply) {
      const int32_t mover = game_->current_player(state);
      if (mover == GSDK_PLAYER_TERMINAL) break;
      const uint32_t n = game_->checked_legal_moves(state, legal);
      if (n == 0) break;
      moves += mover == player;
      game_->apply_move(state, legal[std::uniform_int_distribution<uint32_t>(0, n - 1)(random)]);
    }
  }
  return static_cast<double>(moves) / kLengthPlayouts;
}

GtpEngine::Reply GtpEngine::final_score() const {
  const int64_t score = game_->score(state_);
  if (score == 0) return {true, "0"};
  return {true, score > 0 ? fmt::format("B+{}", score) : fmt::format("W+{}", -score)};
}

} // namespace gsdk::host
