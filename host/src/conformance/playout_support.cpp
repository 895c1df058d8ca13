// playout_support.cpp - summary consistency, single batch playouts and replays.
#include "conformance/playout_support.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/playout_request.hpp"

namespace gsdk::host::conformance {

void check_summary(const CheckContext& context, const core::PlayoutOutcome& out, const core::PlayoutJob& job,
                   const std::string& label, Findings& findings) {
  const core::PlayoutResult& r = out.result;
  if (!out.error.empty()) findings.stop(fmt::format("{}: {}", label, out.error));
  if (r.playouts != job.playouts)
    findings.stop(fmt::format("{}: {} playouts reported, {} asked for", label, r.playouts, job.playouts));
  uint64_t sum = 0;
  for (uint64_t c : r.histogram) sum += c;
  if (sum != job.playouts)
    findings.fail(fmt::format("{}: the histogram counts {} playouts, expected {}", label, sum, job.playouts));
  const auto [lo, hi] = context.game().score_range();
  if (r.worst_score < lo || r.best_score > hi || r.worst_score > r.best_score)
    findings.stop(fmt::format("{}: worst score {} and best score {} are not ordered within score_range [{}, {}]", label,
                              r.worst_score, r.best_score, lo, hi));
  if (r.best_playout >= job.playouts || r.worst_playout >= job.playouts)
    findings.fail(fmt::format("{}: best playout {} or worst playout {} is not below the {} playouts run", label,
                              r.best_playout, r.worst_playout, job.playouts));
  if (r.histogram[static_cast<size_t>(r.best_score - lo)] == 0 ||
      r.histogram[static_cast<size_t>(r.worst_score - lo)] == 0)
    findings.fail(fmt::format("{}: the best score {} or worst score {} has no playout in the histogram", label,
                              r.best_score, r.worst_score));
  for (int64_t s = lo; s <= hi; ++s)
    if ((s < r.worst_score || s > r.best_score) && r.histogram[static_cast<size_t>(s - lo)] != 0)
      findings.fail(fmt::format("{}: {} playouts scored {}, outside [worst {}, best {}]", label,
                                r.histogram[static_cast<size_t>(s - lo)], s, r.worst_score, r.best_score));
}

int64_t batch_playout_score(const CheckContext& context, uint64_t seed, uint64_t playout, const void* start) {
  const gsdk_cpu_playouts& table = *context.tables().cpu_playouts;
  core::PlayoutResult result(context.game().score_range().first, context.game().histogram_bins());
  gsdk_playout_summary summary = result.bind();
  const gsdk_playout_request request = playout_request(seed, playout, 1, start, table.best_simd_level());
  if (const auto failure = core::call_entry(
          [&](char* error, uint32_t size) { return table.run(context.handle(), &request, &summary, error, size); }))
    throw std::runtime_error(fmt::format("gsdk.cpu_playouts.v1 run of playout {} failed (status {}): {}", playout,
                                         failure->status, failure->message));
  if (summary.playouts != 1)
    throw std::runtime_error(
        fmt::format("gsdk.cpu_playouts.v1 asked for playout {} alone reported {} playouts", playout, summary.playouts));
  return summary.best_score;
}

std::optional<int64_t> replayed_score(const CheckContext& context, uint64_t seed, uint64_t playout,
                                      const core::StateBlob& start, bool start_is_initial, Findings& findings) {
  const core::GameInstance& game = context.game();
  std::vector<uint32_t> moves(1u << 20);
  char error[1024] = {};
  const uint32_t n =
      context.tables().replay->playout_moves(game.handle(), seed, playout, start_is_initial ? nullptr : start.data(),
                                             moves.data(), static_cast<uint32_t>(moves.size()), error, sizeof error);
  if (n == 0 && error[0]) {
    findings.fail(fmt::format("replay of playout {} from {} failed: {}", playout, context.quote(start), error));
    return std::nullopt;
  }
  core::StateBlob state = start;
  std::vector<uint32_t> legal(game.max_moves());
  for (uint32_t k = 0; k < n; ++k) {
    if (game.current_player(state) == GSDK_PLAYER_TERMINAL) {
      findings.fail(fmt::format("replay of playout {} from {} goes on after the game ended at move {} of {}", playout,
                                context.quote(start), k, n));
      return std::nullopt;
    }
    const uint32_t count = game.checked_legal_moves(state, legal);
    if (std::find(legal.begin(), legal.begin() + count, moves[k]) == legal.begin() + count) {
      findings.fail(fmt::format("replay of playout {} from {}: move {} ({}) is not among the legal moves of {}",
                                playout, context.quote(start), k, moves[k], context.quote(state)));
      return std::nullopt;
    }
    game.apply_move(state, moves[k]);
  }
  if (game.current_player(state) != GSDK_PLAYER_TERMINAL) {
    findings.fail(fmt::format("replay of playout {} from {} stops after {} moves in the unfinished state {}", playout,
                              context.quote(start), n, context.quote(state)));
    return std::nullopt;
  }
  return game.score(state);
}

} // namespace gsdk::host::conformance
