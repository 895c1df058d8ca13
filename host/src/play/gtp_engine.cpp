// gtp_engine.cpp - GTP v2 parsing, the commands and their responses.
#include "play/gtp_engine.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

const std::vector<std::string> kCommands = {"boardsize",  "clear_board",      "final_score", "genmove", "known_command",
                                            "komi",       "list_commands",    "name",        "play",    "protocol_version",
                                            "quit",       "showboard",        "undo",        "version"};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// GTP's preprocessing: control characters other than tab and newline dropped, tabs become spaces,
// comments (from '#') removed.
std::string preprocess(const std::string& line) {
  std::string out;
  for (char ch : line) {
    if (ch == '#') break;
    if (ch == '\t') out += ' ';
    else if (static_cast<unsigned char>(ch) >= 32 && ch != 127) out += ch;
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

} // namespace

GtpEngine::GtpEngine(const core::GameInstance& game, core::Agent& agent, uint32_t board_size, uint64_t seed)
    : game_(game), agent_(agent), board_size_(board_size), seed_(seed), state_(game.initial_state()) {
  agent_.new_game(seed_);
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
    return {true, !args.empty() && std::find(kCommands.begin(), kCommands.end(), args[0]) != kCommands.end() ? "true" : "false"};
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
    if (std::stoul(args[0]) != board_size_) return {false, "unacceptable size"};
    state_ = game_.initial_state();
    history_.clear();
    agent_.new_game(seed_);
    return {};
  }
  if (command == "clear_board") {
    state_ = game_.initial_state();
    history_.clear();
    agent_.new_game(seed_);
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
    if (history_.empty()) return {false, "cannot undo"};
    state_ = history_.back();
    history_.pop_back();
    return {};
  }
  if (command == "showboard") return {true, "\n" + game_.state_to_string(state_)};
  if (command == "final_score") return final_score();
  return {false, "unknown command"};
}

bool GtpEngine::find_move(const std::string& name, uint32_t& move) const {
  std::vector<uint32_t> legal(game_.max_moves());
  const uint32_t n = game_.checked_legal_moves(state_, legal);
  const std::string wanted = lower(name);
  for (uint32_t k = 0; k < n; ++k) {
    if (lower(game_.move_to_string(state_, legal[k])) != wanted) continue;
    move = legal[k];
    return true;
  }
  return false;
}

void GtpEngine::apply(uint32_t move) {
  history_.push_back(state_);
  agent_.observe_move(state_, move);
  game_.apply_move(state_, move);
}

bool GtpEngine::bring_to_move(int32_t player) {
  const int32_t to_move = game_.current_player(state_);
  if (to_move == player) return true;
  if (to_move == GSDK_PLAYER_TERMINAL || to_move == GSDK_PLAYER_CHANCE) return false;
  std::vector<uint32_t> legal(game_.max_moves());
  if (game_.checked_legal_moves(state_, legal) != 1 || lower(game_.move_to_string(state_, legal[0])) != "pass") return false;
  apply(legal[0]);
  if (game_.current_player(state_) == player) return true;
  state_ = history_.back();
  history_.pop_back();
  return false;
}

GtpEngine::Reply GtpEngine::play(const std::vector<std::string>& args) {
  if (args.size() != 2) return {false, "syntax error"};
  const int32_t player = player_of_colour(args[0]);
  if (player < 0) return {false, "syntax error"};
  const core::StateBlob before = state_;
  const size_t history = history_.size();
  uint32_t move = 0;
  if (!bring_to_move(player) || !find_move(args[1], move)) {
    // Undoes an inserted pass too: a refused play changes nothing.
    state_ = before;
    history_.resize(history);
    return {false, "illegal move"};
  }
  apply(move);
  return {};
}

GtpEngine::Reply GtpEngine::genmove(const std::vector<std::string>& args) {
  if (args.size() != 1) return {false, "syntax error"};
  const int32_t player = player_of_colour(args[0]);
  if (player < 0) return {false, "syntax error"};
  if (game_.current_player(state_) == GSDK_PLAYER_TERMINAL) return {true, "pass"};
  if (!bring_to_move(player)) return {false, fmt::format("it is not {}'s turn", player == 0 ? "black" : "white")};
  const uint32_t move = agent_.choose_move(state_);
  const std::string name = game_.move_to_string(state_, move);
  apply(move);
  return {true, name};
}

GtpEngine::Reply GtpEngine::final_score() const {
  const int64_t score = game_.score(state_);
  if (score == 0) return {true, "0"};
  return {true, score > 0 ? fmt::format("B+{}", score) : fmt::format("W+{}", -score)};
}

} // namespace gsdk::host
