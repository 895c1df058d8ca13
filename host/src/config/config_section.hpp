// config_section.hpp - reading one table of an experiment file: keys outside its declaration are
// refused with the valid ones listed, and every value is read with its type and range checked and a
// file:line:column message when it is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "config/config_error.hpp"
#include "config/config_keys.hpp"
#include "gsdk/core/perft/perft.hpp"

namespace gsdk::host {

// "a string", "an integer", ... for messages.
const char* toml_type_name(const toml::node& node);

// "a, b, c".
std::string join_words(const std::vector<std::string>& words);

class ConfigSection {
public:
  // `label` names the table in messages: "[nmcs]", "the experiment's top level".
  ConfigSection(const toml::table& table, std::string label) : table_(table), label_(std::move(label)) {}

  const toml::table& table() const { return table_; }
  const std::string& label() const { return label_; }

  // Refuses the first key that is not among `allowed`, listing them.
  void allow_only(const std::vector<std::string>& allowed) const;

  const toml::node* node(const std::string& key) const { return table_.get(key); }

  int64_t get(const IntegerKey& key) const;
  double get(const RealKey& key) const;
  bool get(const BooleanKey& key) const;
  std::string get(const StringKey& key) const;

  std::string string(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& choices = {}) const;
  bool boolean(const std::string& key, bool fallback) const;
  std::string required_string(const std::string& key) const;
  int64_t integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) const;
  double real(const std::string& key, double fallback, double min, double max) const;
  std::vector<int> integer_list(const std::string& key, int min, int max) const;
  // A leaf count: a non-negative integer, or a decimal string for counts beyond TOML's 64-bit integers.
  core::uint128 count(const std::string& key) const;
  // The sub-table `key`, or nullptr when absent; refuses a value that is not a table.
  const toml::table* table(const std::string& key) const;
  void require(const std::string& key) const;

  // A located error about `n`, a value of this table's `key`: "'key' in [label] <what>".
  ConfigError error(const toml::node& n, const std::string& key, const std::string& what) const;

private:
  const toml::table& table_;
  std::string label_;
};

// A located error about node `n` (the message says which key).
ConfigError located_error(const toml::node& n, const std::string& message);

} // namespace gsdk::host
