// playout_support.hpp - what several playout checks share: a summary checked against itself and the game,
// one playout of the plugin's CPU batch table, and the replay of a batch playout through the per-state rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "conformance/check_context.hpp"
#include "conformance/findings.hpp"
#include "gsdk/core/playouts/playouts.hpp"

namespace gsdk::host::conformance {

// Checks `out` (a run of `job` from `start`) for consistency: no error, the job's playout count, a histogram
// summing to it within the score range, extremes that are in range, ordered, numbered below the count and
// present in the histogram. `label` names the run in messages.
void check_summary(const CheckContext& context, const core::PlayoutOutcome& out, const core::PlayoutJob& job,
                   const std::string& label, Findings& findings);

// The score of playout (seed, playout) from `start` (NULL: the initial state) through the plugin's CPU batch
// table, asked for alone. Throws std::runtime_error with the plugin's message.
int64_t batch_playout_score(const CheckContext& context, uint64_t seed, uint64_t playout, const void* start);

// Replays playout (seed, playout) from `start` (NULL: the initial state) with the replay table and plays its
// moves through the per-state rules, checking each is listed as legal; returns the final score, or nullopt
// (with a failure recorded) when the replay fails, plays an unlisted move or does not end the game.
std::optional<int64_t> replayed_score(const CheckContext& context, uint64_t seed, uint64_t playout,
                                      const core::StateBlob& start, bool start_is_initial, Findings& findings);

} // namespace gsdk::host::conformance
