// start_keys.hpp - the warm starts of a one-player search's table, as NMCS and the beam search read them: one of
// start_moves (a list of moves), start_from (a best-sequence file whose moves to play first) and starts_from (a
// JSON Lines file of sequences, e.g. an earlier run's [output] searches: search k starts from line k mod n).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "config/config_keys.hpp"
#include "config/config_section.hpp"

namespace gsdk::host {

struct StartKeys {
  std::vector<std::vector<uint32_t>> starts; // empty: the initial state
  // Where the key given was (none: no start), for the search's refusal of a start it cannot play.
  std::optional<toml::source_region> where;
  std::string file; // start_from's or starts_from's file, read with the config: an input of the run
};

// The keys' listing, in the order a table lists them.
std::vector<KeyDoc> start_key_docs();

// Reads the start key of `section`, if any, and the file it names. Throws ConfigError (located at the key) for two
// of them given, a bad list, or a file that cannot be read as one.
StartKeys read_start_keys(const ConfigSection& section);

} // namespace gsdk::host
