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
// device_milliseconds, divide: [{move, leaves}] (when `divide`), hash (when `hashed`: perft_hash_json)}. Counts
// are decimal strings: they may exceed what a JSON reader keeps exactly.
nlohmann::json perft_json(const core::PerftOutcome& outcome, bool divide, bool hashed);

// The tables' statistics as JSON numbers: {enabled, paths, subtrees, host: {bytes, slots, filled, probes, hits,
// stores}, device: {the same, every GPU's summed}, frontier_states, duplicates}; and back.
nlohmann::json perft_hash_json(const core::PerftHashStats& stats);
core::PerftHashStats perft_hash_from_json(const nlohmann::json& hash);

// Adds `more` (another position's statistics) to `total`: counts summed, table sizes the largest.
void add_perft_hash(core::PerftHashStats& total, const core::PerftHashStats& more);

// One line of what the tables did: "CPU table 64 MiB, 12.5% full, 4100 probes, 36.1% hits; GPU tables ...;
// 1200 distinct subtrees of 3400 paths; 80 of 9000 GPU frontier states were duplicates" (each table only where it
// was used, the duplicates only where a GPU engine merged levels).
std::string perft_hash_line(const core::PerftHashStats& stats);

// What `stockfish go perft` prints, so the two can be compared line by line: with `divide` one
// "<move>: <count>" line per root move and a blank line, then "Nodes searched: <total>"; after it
// "Time: <s> s", "Speed: <n> nodes/s", "Engine: <engine> (<devices>)" and, when `hashed`, "Hash: " and
// perft_hash_line.
void print_perft(const core::PerftOutcome& outcome, bool divide, bool hashed, const std::string& devices);

} // namespace gsdk::host
