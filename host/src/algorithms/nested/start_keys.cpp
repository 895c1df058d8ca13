// start_keys.cpp - start_moves, start_from and starts_from: which one was given, and the moves it names.
#include "algorithms/nested/start_keys.hpp"

#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/nested/best_sequence_file.hpp"
#include "config/config_error.hpp"

namespace gsdk::host {

namespace {

const OtherKey kStartMoves{"start_moves", "array of integers", "none", "moves to play before the searches"};
const OtherKey kStartFrom{"start_from", "string", "none", "a best-sequence file whose moves to play first"};
const OtherKey kStartsFrom{"starts_from", "string", "none",
                           "a JSON Lines file of sequences (e.g. an earlier run's [output] searches): search k starts "
                           "from line k mod n"};

} // namespace

std::vector<KeyDoc> start_key_docs() {
  return {describe(kStartMoves), describe(kStartFrom), describe(kStartsFrom)};
}

StartKeys read_start_keys(const ConfigSection& s) {
  const std::string keys[] = {kStartMoves.name, kStartFrom.name, kStartsFrom.name};
  const std::string* given = nullptr;
  for (const std::string& key : keys) {
    const toml::node* node = s.node(key);
    if (!node) continue;
    if (given)
      throw ConfigError(located(node->source(), fmt::format("{} takes one of 'start_moves', 'start_from' and "
                                                            "'starts_from', not both '{}' and '{}'",
                                                            s.label(), *given, key)));
    given = &key;
  }
  StartKeys read;
  if (!given) return read;
  read.where = s.node(*given)->source();
  if (*given == kStartMoves.name) {
    const std::vector<int> moves = s.integer_list(kStartMoves.name, 0, std::numeric_limits<int>::max());
    read.starts = {std::vector<uint32_t>(moves.begin(), moves.end())};
    return read;
  }
  read.file = s.string(*given, "");
  try {
    if (*given == kStartFrom.name)
      read.starts = {read_best_moves(read.file)};
    else
      read.starts = read_sequence_lines(read.file);
  } catch (const std::runtime_error& e) {
    throw ConfigError(located(s.node(*given)->source(), fmt::format("'{}' in {}: {}", *given, s.label(), e.what())));
  }
  return read;
}

} // namespace gsdk::host
