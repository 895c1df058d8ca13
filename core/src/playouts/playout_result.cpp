// playout_result.cpp - merging, moments, digest and the chi-square test of playout results.
#include "gsdk/core/playouts/playout_result.hpp"

#include <boost/math/special_functions/gamma.hpp>
#include <fmt/format.h>

#include "gsdk/core/runtime/digest.hpp"
#include "gsdk/playout_summary.hpp"

namespace gsdk::core {

PlayoutResult::PlayoutResult(int64_t min, uint32_t bins) : score_min(min), histogram(bins, 0) {}

gsdk_playout_summary PlayoutResult::bind() {
  gsdk_playout_summary s{};
  s.header = {GSDK_TYPE_PLAYOUT_SUMMARY, sizeof(gsdk_playout_summary)};
  s.playouts = playouts;
  s.best_score = best_score;
  s.best_playout = best_playout;
  s.worst_score = worst_score;
  s.worst_playout = worst_playout;
  s.histogram = histogram.data();
  s.histogram_bins = static_cast<uint32_t>(histogram.size());
  s.device_milliseconds = device_milliseconds;
  return s;
}

void PlayoutResult::absorb(const gsdk_playout_summary& s) {
  playouts = s.playouts;
  best_score = s.best_score;
  best_playout = s.best_playout;
  worst_score = s.worst_score;
  worst_playout = s.worst_playout;
  device_milliseconds = s.device_milliseconds;
}

void PlayoutResult::merge(const PlayoutResult& other) {
  gsdk_playout_summary into = bind();
  // merge_summary only reads `from`; the view aliases other's histogram without copying it.
  gsdk_playout_summary from = const_cast<PlayoutResult&>(other).bind();
  gsdk::merge_summary(into, from);
  absorb(into);
}

double PlayoutResult::mean() const {
  if (playouts == 0) return 0;
  long double sum = 0;
  for (size_t k = 0; k < histogram.size(); ++k)
    sum += static_cast<long double>(histogram[k]) * static_cast<long double>(score_min + static_cast<int64_t>(k));
  return static_cast<double>(sum / playouts);
}

double PlayoutResult::variance() const {
  if (playouts == 0) return 0;
  const long double m = mean();
  long double sum = 0;
  for (size_t k = 0; k < histogram.size(); ++k) {
    const long double d = static_cast<long double>(score_min + static_cast<int64_t>(k)) - m;
    sum += static_cast<long double>(histogram[k]) * d * d;
  }
  return static_cast<double>(sum / playouts);
}

std::vector<std::string> PlayoutResult::contradictions() const {
  std::vector<std::string> found;
  uint64_t total = 0;
  bool overflowed = false;
  for (uint64_t count : histogram) overflowed |= __builtin_add_overflow(total, count, &total);
  if (overflowed || total != playouts)
    found.push_back(overflowed
                        ? fmt::format("the histogram counts more playouts than 2^64, the result says {}", playouts)
                        : fmt::format("the histogram counts {} playouts, the result says {}", total, playouts));
  if (playouts == 0) return found;
  const auto in_histogram = [&](int64_t score) {
    int64_t bin = 0; // read from a file, the scores may be anything: their difference is checked
    if (__builtin_sub_overflow(score, score_min, &bin) || bin < 0 || bin >= static_cast<int64_t>(histogram.size()))
      return false;
    return histogram[static_cast<size_t>(bin)] > 0;
  };
  for (const auto& [name, score] : {std::pair{"best", best_score}, std::pair{"worst", worst_score}})
    if (!in_histogram(score))
      found.push_back(fmt::format("the {} score {} has no playout in the histogram", name, score));
  if (best_score < worst_score)
    found.push_back(fmt::format("the best score {} is below the worst {}", best_score, worst_score));
  return found;
}

std::string PlayoutResult::canonical() const {
  std::string text = fmt::format("playouts={};best={}@{};worst={}@{};score_min={};histogram=", playouts, best_score,
                                 best_playout, worst_score, worst_playout, score_min);
  for (size_t k = 0; k < histogram.size(); ++k) text += fmt::format("{}{}", k ? "," : "", histogram[k]);
  return text;
}

std::string PlayoutResult::digest() const {
  return sha1_digest(canonical());
}

ChiSquare chi_square(const std::vector<uint64_t>& observed, const std::vector<double>& probabilities) {
  ChiSquare out;
  uint64_t total = 0;
  for (uint64_t o : observed) total += o;
  if (total == 0 || observed.size() != probabilities.size()) return out;
  // Pool neighbouring bins from the left until each pooled cell expects >= 5.
  std::vector<std::pair<double, double>> cells; // (observed, expected)
  double o_acc = 0, e_acc = 0;
  for (size_t k = 0; k < observed.size(); ++k) {
    o_acc += static_cast<double>(observed[k]);
    e_acc += probabilities[k] * static_cast<double>(total);
    if (e_acc >= 5) {
      cells.emplace_back(o_acc, e_acc);
      o_acc = e_acc = 0;
    }
  }
  if (!cells.empty()) {
    cells.back().first += o_acc;
    cells.back().second += e_acc;
  }
  if (cells.size() < 2) return out;
  for (const auto& [o, e] : cells) out.statistic += (o - e) * (o - e) / e;
  out.degrees_of_freedom = static_cast<int>(cells.size()) - 1;
  out.p_value = boost::math::gamma_q(out.degrees_of_freedom / 2.0, out.statistic / 2.0);
  return out;
}

} // namespace gsdk::core
