// render.cpp - the policy picture: the board (mines black, flag green), how often agents stepped on
// each cell (white to red, log scale) and the greedy action of every free cell as an arrow (a grey dot
// where the table has not told the actions apart yet), with a legend to the right of the board saying so.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "legend_font.hpp"
#include "minefield_game.hpp"

namespace minefield {

namespace {

struct Rgb {
  uint8_t r, g, b;
};

class Canvas {
public:
  Canvas(uint32_t width, uint32_t height, std::vector<uint8_t>& pixels)
      : width_(width), height_(height), pixels_(pixels) {
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

constexpr Rgb kGrid{200, 200, 200}, kMineColour{30, 30, 30}, kFlagColour{40, 170, 60}, kArrow{25, 45, 140},
    kUntrained{150, 150, 150};
constexpr Rgb kText{40, 40, 40};

// White at t = 0 through yellow to red at t = 1.
Rgb heat_colour(double t) {
  if (t < 0.5) return {255, 255, static_cast<uint8_t>(255 * (1 - 2 * t))};
  return {255, static_cast<uint8_t>(255 * (2 - 2 * t)), 0};
}

// White (never visited) through yellow to red (the most visited cell), on a log scale.
Rgb heat(uint64_t visits, double log_max) {
  if (visits == 0 || log_max <= 0) return {255, 255, 255};
  return heat_colour(std::log1p(static_cast<double>(visits)) / log_max);
}

// The greedy action's arrow: a shaft from (x0, y0) to (x1, y1), one of the four directions, and a two-stroke head.
void arrow(Canvas& canvas, int x0, int y0, int x1, int y1, int head, int thickness) {
  const int dx = (x1 > x0) - (x1 < x0), dy = (y1 > y0) - (y1 < y0);
  canvas.line(x0, y0, x1, y1, kArrow, thickness);
  canvas.line(x1, y1, x1 - dx * head + dy * head, y1 - dy * head + dx * head, kArrow, thickness);
  canvas.line(x1, y1, x1 - dx * head - dy * head, y1 - dy * head - dx * head, kArrow, thickness);
}

// The legend beside the board: what each colour and mark means, and the heat map's scale from 0 to the most visits.
// Its size depends on the cell size alone (never on the visits: a picture's size is asked for before it is drawn).
class Legend {
public:
  static constexpr int kLongestLabel = 12; // "VISITS (LOG)"
  static constexpr int kRows = 7;          // mine, flag, arrow, dot, heat title, heat bar, its numbers

  explicit Legend(int cell) : unit_(cell >= 16 ? 2 : 1) {}

  int width() const { return 2 * pad() + swatch() + gap() + text_width(kLongestLabel); }
  int height() const { return 2 * pad() + kRows * pitch() - 4 * unit_; }

  void draw(Canvas& canvas, int left, uint64_t most_visits, bool heat_map) const {
    const int x = left + pad(), text_x = x + swatch() + gap();
    const auto row_y = [&](int row) { return pad() + row * pitch(); };
    canvas.fill(x, row_y(0), swatch(), swatch(), kMineColour);
    text(canvas, text_x, row_y(0), "MINE");
    canvas.fill(x, row_y(1), swatch(), swatch(), kFlagColour);
    text(canvas, text_x, row_y(1), "FLAG");
    const int middle = row_y(2) + swatch() / 2;
    arrow(canvas, x, middle, x + swatch() - 1, middle, 2 * unit_, unit_);
    text(canvas, text_x, row_y(2), "BEST MOVE");
    canvas.fill(x + swatch() / 2 - 1, row_y(3) + swatch() / 2 - 1, 3, 3, kUntrained);
    text(canvas, text_x, row_y(3), "UNDECIDED");
    if (!heat_map) return;
    text(canvas, x, row_y(4), "VISITS (LOG)");
    const int bar = width() - 2 * pad();
    for (int i = 0; i < bar; ++i) canvas.fill(x + i, row_y(5), 1, swatch(), heat_colour(i / double(bar - 1)));
    const std::string most = std::to_string(most_visits);
    text(canvas, x, row_y(6), "0");
    text(canvas, std::max(x + text_width(2), x + bar - text_width(static_cast<int>(most.size()))), row_y(6), most);
  }

private:
  int pad() const { return 6 * unit_; }
  int gap() const { return 3 * unit_; }
  int swatch() const { return kGlyphHeight * unit_; }
  int pitch() const { return (kGlyphHeight + 4) * unit_; }
  int text_width(int characters) const { return characters * (kGlyphWidth + 1) * unit_ - unit_; }

  void text(Canvas& canvas, int x, int y, const std::string& words) const {
    for (const char c : words) {
      if (const Glyph* glyph = legend_glyph(c))
        for (int row = 0; row < kGlyphHeight; ++row)
          for (int column = 0; column < kGlyphWidth; ++column)
            if ((*glyph)[row][column] == '#') canvas.fill(x + column * unit_, y + row * unit_, unit_, unit_, kText);
      x += (kGlyphWidth + 1) * unit_;
    }
  }

  int unit_; // pixels per font pixel
};

} // namespace

void Game::policy_image(const float* q, const uint64_t* visits, std::vector<uint8_t>& rgb, uint32_t& width,
                        uint32_t& height) const {
  const uint32_t n = board_.size;
  const int cell = static_cast<int>(std::clamp<uint32_t>(1024 / n, 8, 32));
  const uint32_t board_pixels = n * static_cast<uint32_t>(cell) + 1;
  const Legend legend(cell);
  width = board_pixels + static_cast<uint32_t>(legend.width());
  height = std::max(board_pixels, static_cast<uint32_t>(legend.height()));
  Canvas canvas(width, height, rgb);
  double log_max = 0;
  uint64_t most_visits = 0;
  if (visits)
    for (uint32_t c = 0; c < board_.cell_count(); ++c) {
      log_max = std::max(log_max, std::log1p(static_cast<double>(visits[c])));
      most_visits = std::max(most_visits, visits[c]);
    }

  for (uint32_t c = 0; c < board_.cell_count(); ++c) {
    const int x = static_cast<int>(board_.column(c)) * cell, y = static_cast<int>(board_.row(c)) * cell;
    const Rgb background = board_.cells[c] == kMine   ? kMineColour
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
    arrow(canvas, cx - dx[best] * reach, cy - dy[best] * reach, cx + dx[best] * reach, cy + dy[best] * reach, head,
          thickness);
  }
  for (uint32_t i = 0; i <= n; ++i) {
    canvas.fill(static_cast<int>(i) * cell, 0, 1, static_cast<int>(board_pixels), kGrid);
    canvas.fill(0, static_cast<int>(i) * cell, static_cast<int>(board_pixels), 1, kGrid);
  }
  legend.draw(canvas, static_cast<int>(board_pixels), most_visits, visits != nullptr);
}

} // namespace minefield
