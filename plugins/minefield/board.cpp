// board.cpp - random minefield maps.
#include "board.hpp"
#include "environment.hpp"

#include <numeric>
#include <utility>

#include "gsdk/plugin.hpp"
#include "gsdk/rng/philox.hpp"

namespace minefield {

Board make_board(uint32_t size, uint32_t mines, uint64_t map_seed) {
  const uint64_t cells = uint64_t{size} * size;
  if (uint64_t{mines} + 2 > cells)
    throw gsdk::PluginError("mines = " + std::to_string(mines) + " leaves no empty cell on a " + std::to_string(size) +
                            "x" + std::to_string(size) + " board of " + std::to_string(cells) +
                            " cells (one is the flag, one at least must be free): at most " +
                            std::to_string(cells - 2) + " mines");
  Board b;
  b.size = size;
  b.cells.assign(cells, kEmpty);
  std::vector<uint32_t> order(cells);
  std::iota(order.begin(), order.end(), 0u);
  gsdk::rng::PhiloxStream random(map_seed, 0x4d494e45); // "MINE"
  for (uint32_t i = 0; i <= mines; ++i)
    std::swap(order[i], order[i + random.below(static_cast<uint32_t>(cells - i))]);
  for (uint32_t i = 0; i < mines; ++i) b.cells[order[i]] = kMine;
  b.flag = order[mines];
  b.cells[b.flag] = kFlag;
  for (uint32_t c = 0; c < cells; ++c)
    if (b.cells[c] == kEmpty) b.starts.push_back(c);
  return b;
}

std::vector<uint8_t> encode_cells(const Board& b) {
  std::vector<uint8_t> encoded(b.cells);
  for (uint32_t c = 0; c < b.cell_count(); ++c) {
    if (b.column(c) + 1 == b.size) encoded[c] |= wall_bit(0);
    if (b.row(c) + 1 == b.size) encoded[c] |= wall_bit(1);
    if (b.column(c) == 0) encoded[c] |= wall_bit(2);
    if (b.row(c) == 0) encoded[c] |= wall_bit(3);
  }
  return encoded;
}

} // namespace minefield
