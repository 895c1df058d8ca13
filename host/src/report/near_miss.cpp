// near_miss.cpp - the edit distance behind "did you mean", written here: it is a dozen lines, and neither the
// standard library, Boost nor Debian's C++ packages offer one.
#include "report/near_miss.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

// Optimal string alignment distance, case-insensitive: a swap of two neighbours ("ocunt") counts as one edit.
size_t edit_distance(const std::string& a, const std::string& b) {
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

} // namespace

std::vector<std::string> near_misses(const std::string& typed, const std::vector<std::string>& candidates) {
  const size_t allowed = std::max<size_t>(1, typed.size() / 3);
  size_t best = allowed;
  std::vector<std::string> nearest;
  for (const std::string& candidate : candidates) {
    // Lengths further apart than the allowed edits cannot be that close: a huge name costs nothing.
    const size_t apart =
        typed.size() > candidate.size() ? typed.size() - candidate.size() : candidate.size() - typed.size();
    if (candidate == typed || apart > allowed) continue;
    const size_t distance = edit_distance(typed, candidate);
    if (distance > best) continue;
    if (distance < best) nearest.clear();
    best = distance;
    if (std::find(nearest.begin(), nearest.end(), candidate) == nearest.end()) nearest.push_back(candidate);
  }
  return nearest;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::vector<std::string> nearest = near_misses(typed, candidates);
  if (nearest.empty()) return "";
  std::string names;
  for (size_t k = 0; k < nearest.size(); ++k)
    names += fmt::format("{}'{}'", k == 0 ? "" : k + 1 == nearest.size() ? " or " : ", ", nearest[k]);
  return fmt::format(" (did you mean {}?)", names);
}

} // namespace gsdk::host
