// gtp_board.cpp - a board recognised in a state's text (gtp_board.hpp) and drawn as a grid for showboard.
#include "play/gtp_board.hpp"

#include <set>
#include <sstream>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

constexpr size_t kMostSymbols = 3;    // empty and each player's stones
constexpr uint32_t kMostColumns = 26; // column letters a .. z

bool few_symbols(const std::string& cells) {
  return std::set<char>(cells.begin(), cells.end()).size() <= kMostSymbols;
}

} // namespace

std::optional<GtpGrid> gtp_grid(std::string_view word) {
  GtpGrid grid;
  if (word.find('/') == std::string_view::npos) {
    uint32_t n = 2;
    while (n * n < word.size()) ++n;
    if (n * n != word.size()) return std::nullopt;
    grid = {n, n, std::string(word)};
  } else {
    for (std::string_view rest = word;;) {
      const size_t end = rest.find('/');
      const std::string_view row = rest.substr(0, end);
      if (row.size() < 2 || (grid.height > 0 && row.size() != grid.width)) return std::nullopt;
      grid.width = static_cast<uint32_t>(row.size());
      ++grid.height;
      grid.cells.append(row);
      if (end == std::string_view::npos) break;
      rest.remove_prefix(end + 1);
    }
    if (grid.height < 2) return std::nullopt;
  }
  if (!few_symbols(grid.cells)) return std::nullopt;
  return grid;
}

std::string gtp_board_picture(const std::string& state_text) {
  std::istringstream words(state_text);
  std::string board;
  words >> board;
  const auto grid = gtp_grid(board);
  if (!grid || grid->width > kMostColumns) return state_text;
  const size_t margin = std::to_string(grid->height).size();
  std::string picture(margin + 1, ' ');
  for (uint32_t col = 0; col < grid->width; ++col) picture.append(fmt::format(" {}", static_cast<char>('a' + col)));
  for (uint32_t row = 0; row < grid->height; ++row) {
    picture.append(fmt::format("\n{:>{}} ", row + 1, margin));
    for (uint32_t col = 0; col < grid->width; ++col)
      picture.append(fmt::format(" {}", grid->cells[row * grid->width + col]));
  }
  std::string rest;
  std::getline(words, rest);
  const size_t rest_begins = rest.find_first_not_of(' ');
  if (rest_begins != std::string::npos) picture.append(fmt::format("\n{}", rest.substr(rest_begins)));
  return picture;
}

} // namespace gsdk::host
