// render.cpp - the policy picture: the board (mines black, flag green), how often agents stepped on
// each cell (white to red, log scale) and the greedy action of every free cell as an arrow (a grey dot
// where the table has not told the actions apart yet).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "minefield_game.hpp"

namespace minefield {

namespace {

struct Rgb {
  uint8_t r, g, b;
};

class Canvas {
public:
  Canvas(uint32_t width, uint32_t height, std::vector<uint8_t>& pixels) : width_(width), height_(height), pixels_(pixels) {
    pixels_.assign(uint64_t{width} * height * 3, 255);
  }

  void set(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= static_cast<int>(width_) || y >= static_cast<int>(height_)) return;
    uint8_t* p = &pixels_[(uint64_t{static_cast<uint32_t>(y)} * width_ + static_cast<uint32_t>(x)) * 3];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }

  void fill(int x0, int y0, int w, int h, Rgb c) {
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x) set(x, y, c);
  }

  // Bresenham, a few pixels thick.
  void line(int x0, int y0, int x1, int y1, Rgb c, int thickness) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    for (int error = dx + dy;;) {
      fill(x0 - thickness / 2, y0 - thickness / 2, thickness, thickness, c);
      if (x0 == x1 && y0 == y1) return;
      const int e2 = 2 * error;
      if (e2 >= dy) error += dy, x0 += sx;
      if (e2 <= dx) error += dx, y0 += sy;
    }
  }

private:
  uint32_t width_, height_;
  std::vector<uint8_t>& pixels_;
};

constexpr Rgb kGrid{200, 200, 200}, kMineColour{30, 30, 30}, kFlagColour{40, 170, 60}, kArrow{25, 45, 140}, kUntrained{150, 150, 150};

// White (never visited) through yellow to red (the most visited cell), on a log scale.
Rgb heat(uint64_t visits, double log_max) {
  if (visits == 0 || log_max <= 0) return {255, 255, 255};
  const double t = std::log1p(static_cast<double>(visits)) / log_max;
  if (t < 0.5) return {255, 255, static_cast<uint8_t>(255 * (1 - 2 * t))};
  return {255, static_cast<uint8_t>(255 * (2 - 2 * t)), 0};
}

} // namespace

void Game::policy_image(const float* q, const uint64_t* visits, std::vector<uint8_t>& rgb, uint32_t& width,
                        uint32_t& height) const {
  const uint32_t n = board_.size;
  const int cell = static_cast<int>(std::clamp<uint32_t>(1024 / n, 8, 32));
  width = height = n * static_cast<uint32_t>(cell) + 1;
  Canvas canvas(width, height, rgb);
  double log_max = 0;
  if (visits)
    for (uint32_t c = 0; c < board_.cell_count(); ++c) log_max = std::max(log_max, std::log1p(static_cast<double>(visits[c])));

  for (uint32_t c = 0; c < board_.cell_count(); ++c) {
    const int x = static_cast<int>(board_.column(c)) * cell, y = static_cast<int>(board_.row(c)) * cell;
    const Rgb background = board_.cells[c] == kMine ? kMineColour
                           : board_.cells[c] == kFlag ? kFlagColour
                                                      : heat(visits ? visits[c] : 0, log_max);
    canvas.fill(x, y, cell, cell, background);
    if (board_.cells[c] != kEmpty || !q) continue;
    const float* row = q + uint64_t{c} * kActions;
    const uint32_t best = static_cast<uint32_t>(std::max_element(row, row + kActions) - row);
    const int cx = x + cell / 2, cy = y + cell / 2;
    if (std::all_of(row, row + kActions, [&](float v) { return v == row[0]; })) {
      canvas.fill(cx - 1, cy - 1, 3, 3, kUntrained);
      continue;
    }
    // Arrow from the centre to the side the action leads to, with a two-stroke head.
    constexpr int dx[kActions] = {1, 0, -1, 0}, dy[kActions] = {0, 1, 0, -1};
    const int reach = cell * 2 / 5, head = std::max(2, cell / 5), thickness = cell >= 16 ? 2 : 1;
    const int tx = cx + dx[best] * reach, ty = cy + dy[best] * reach;
    canvas.line(cx - dx[best] * reach, cy - dy[best] * reach, tx, ty, kArrow, thickness);
    canvas.line(tx, ty, tx - dx[best] * head + dy[best] * head, ty - dy[best] * head + dx[best] * head, kArrow, thickness);
    canvas.line(tx, ty, tx - dx[best] * head - dy[best] * head, ty - dy[best] * head - dx[best] * head, kArrow, thickness);
  }
  for (uint32_t i = 0; i <= n; ++i) {
    canvas.fill(static_cast<int>(i) * cell, 0, 1, static_cast<int>(height), kGrid);
    canvas.fill(0, static_cast<int>(i) * cell, static_cast<int>(width), 1, kGrid);
  }
}

} // namespace minefield
