// perft_report.hpp - perft outcomes as people and programs read them: the Stockfish-style text of
// `gsdk perft` and the JSON of results files.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gsdk/core/perft/perft.hpp"

namespace gsdk::host {

// Leaves per second of wall time (0 for a run too short to time).
double nodes_per_second(const core::PerftOutcome& outcome);

// {leaves, status, error (when incomplete), engine, seconds, nodes_per_second, cpu_leaves, cuda_leaves,
// device_milliseconds, divide: [{move, leaves}] (when `divide`)}. Counts are decimal strings: they may
// exceed what a JSON reader keeps exactly.
nlohmann::json perft_json(const core::PerftOutcome& outcome, bool divide);

// What `stockfish go perft` prints, so the two can be compared line by line: with `divide` one
// "<move>: <count>" line per root move and a blank line, then "Nodes searched: <total>"; after it
// "Time: <s> s", "Speed: <n> nodes/s" and "Engine: <engine> (<devices>)".
void print_perft(const core::PerftOutcome& outcome, bool divide, const std::string& devices);

} // namespace gsdk::host
