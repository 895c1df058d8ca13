// board.hpp - a minefield map: an N x N grid holding mines and one flag, placed at random from a map
// seed, fixed for a whole run. Cells are numbered row by row (cell = row * N + column, row 0 on top).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace minefield {

enum Cell : uint8_t { kEmpty = 0, kMine = 1, kFlag = 2 };

struct Board {
  uint32_t size = 0;
  std::vector<uint8_t> cells;    // Cell per cell
  std::vector<uint32_t> starts;  // the empty cells, ascending: where agents start
  uint32_t flag = 0;

  uint32_t cell_count() const { return size * size; }
  uint32_t column(uint32_t cell) const { return cell % size; }
  uint32_t row(uint32_t cell) const { return cell / size; }
};

// `mines` mines and then the flag on distinct cells, drawn by a partial Fisher-Yates shuffle of the
// cells from the Philox stream (map_seed, 'MINE'). Throws gsdk::PluginError when they leave no empty
// cell for an agent to start on.
Board make_board(uint32_t size, uint32_t mines, uint64_t map_seed);

} // namespace minefield
