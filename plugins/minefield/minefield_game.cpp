// minefield_game.cpp - parameters, per-state rules and text I/O of the minefield.
#include "minefield_game.hpp"

#include <charconv>

namespace minefield {

namespace {

constexpr gsdk_param_desc kParams[] = {
    {"size", GSDK_PARAM_INT, 0, 46, 0, nullptr, 2, 256, "the board is size x size cells"},
    {"agents", GSDK_PARAM_INT, 0, 512, 0, nullptr, 1, 1024, "agents per environment, sharing its Q-table"},
    {"mines", GSDK_PARAM_INT, 0, -1, 0, nullptr, -1, 65534, "mines on the board; -1: 3 x size"},
    {"map_seed", GSDK_PARAM_INT, 0, 1, 0, nullptr, 0, 9007199254740992.0, "seed of the mine and flag placement"},
    {"step_limit", GSDK_PARAM_INT, 0, 1000, 0, nullptr, 1, 10000000, "steps an episode (and an agent) lasts at most"},
};

uint32_t parse_field(std::string_view text, std::string_view field, uint32_t limit, std::string_view whole) {
  uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value >= limit)
    throw gsdk::PluginError("minefield state \"" + std::string(whole) + "\": " + std::string(field) + " \"" +
                            std::string(text) + "\" is not an integer in [0, " + std::to_string(limit - 1) +
                            "]; expected \"column,row\" or \"column,row,steps\"");
  return value;
}

} // namespace

std::span<const gsdk_param_desc> Game::parameters() { return kParams; }

Game::Game(const gsdk::Params& params) {
  const auto size = static_cast<uint32_t>(params.get_int("size"));
  const int64_t mines = params.get_int("mines");
  board_ = make_board(size, mines < 0 ? 3 * size : static_cast<uint32_t>(mines),
                      static_cast<uint64_t>(params.get_int("map_seed")));
  step_cells_ = encode_cells(board_);
  environment_ = Environment{size, static_cast<uint32_t>(params.get_int("agents")),
                             static_cast<uint32_t>(params.get_int("step_limit")), step_cells_.data()};
  board_planes_.resize(2 * size_t{board_.cell_count()});
  for (uint32_t cell = 0; cell < board_.cell_count(); ++cell) {
    board_planes_[cell] = board_.cells[cell] == kMine ? 1 : 0;
    board_planes_[board_.cell_count() + cell] = board_.cells[cell] == kFlag ? 1 : 0;
  }
}

int32_t Game::current_player(const State& s) const {
  return board_.cells[s.cell] != kEmpty || s.steps >= environment_.limit ? GSDK_PLAYER_TERMINAL : 0;
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  if (current_player(s) == GSDK_PLAYER_TERMINAL) return 0;
  for (uint32_t a = 0; a < kActions; ++a) moves[a] = a;
  return kActions;
}

void Game::apply_move(State& s, uint32_t action) const {
  s.cell = environment_.neighbour(s.cell, action);
  ++s.steps;
}

int64_t Game::score(const State& s) const {
  return board_.cells[s.cell] == kMine ? -1 : board_.cells[s.cell] == kFlag ? 1 : 0;
}

std::string Game::state_to_string(const State& s) const {
  return std::to_string(board_.column(s.cell)) + "," + std::to_string(board_.row(s.cell)) + "," +
         std::to_string(s.steps);
}

std::string Game::move_to_string(const State&, uint32_t action) const {
  return action < kActions ? kActionNames[action] : "action " + std::to_string(action);
}

State Game::state_from_string(std::string_view text) const {
  std::vector<std::string_view> fields;
  for (size_t begin = 0;;) {
    const size_t comma = text.find(',', begin);
    fields.push_back(text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  if (fields.size() < 2 || fields.size() > 3)
    throw gsdk::PluginError("minefield state \"" + std::string(text) + "\" has " + std::to_string(fields.size()) +
                            " comma-separated fields; expected \"column,row\" or \"column,row,steps\"");
  const uint32_t column = parse_field(fields[0], "column", board_.size, text);
  const uint32_t row = parse_field(fields[1], "row", board_.size, text);
  const uint32_t steps = fields.size() == 3 ? parse_field(fields[2], "steps", environment_.limit + 1, text) : 0;
  return State{row * board_.size + column, steps};
}

} // namespace minefield
