// config_section.cpp - typed, located reading of one experiment table.
#include "config/config_section.hpp"

#include "config/quoted_value.hpp"
#include "report/near_miss.hpp"
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gsdk::host {

const char* toml_type_name(const toml::node& node) {
  switch (node.type()) {
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a floating-point number";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::table:
    return "a table";
  case toml::node_type::array:
    return "an array";
  default:
    return "a date/time";
  }
}

std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

ConfigError located_error(const toml::node& n, const std::string& message) {
  return ConfigError(located(n.source(), message));
}

ConfigError ConfigSection::error(const toml::node& n, const std::string& key, const std::string& what) const {
  return ConfigError(located(n.source(), fmt::format("'{}' in {} {}", key, label_, what)));
}

void ConfigSection::allow_only(const std::vector<std::string>& allowed) const {
  for (const auto& [key, node] : table_) {
    if (std::find(allowed.begin(), allowed.end(), std::string(key.str())) != allowed.end()) continue;
    throw ConfigError(
        located(key.source(), fmt::format("unknown key {}{} in {}; valid keys: {}", quote_value(key.str(), '\''),
                                          did_you_mean(std::string(key.str()), allowed), label_, join_words(allowed))));
  }
}

int64_t ConfigSection::get(const IntegerKey& key) const {
  if (key.required) require(key.name);
  return integer(key.name, key.fallback, key.min, key.max);
}

double ConfigSection::get(const RealKey& key) const {
  return real(key.name, key.fallback, key.min, key.max);
}

bool ConfigSection::get(const BooleanKey& key) const {
  return boolean(key.name, key.fallback);
}

std::string ConfigSection::get(const StringKey& key) const {
  if (key.required) return required_string(key.name);
  return string(key.name, key.fallback, key.choices);
}

std::string ConfigSection::string(const std::string& key, const std::string& fallback,
                                  const std::vector<std::string>& choices) const {
  const toml::node* n = node(key);
  if (!n) return fallback;
  if (!n->is_string()) throw error(*n, key, fmt::format("must be a string, got {}", toml_type_name(*n)));
  const std::string value = n->as_string()->get();
  if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end())
    throw error(*n, key, fmt::format("is {}; expected one of: {}", quote_value(value), join_words(choices)));
  return value;
}

bool ConfigSection::boolean(const std::string& key, bool fallback) const {
  const toml::node* n = node(key);
  if (!n) return fallback;
  if (!n->is_boolean()) throw error(*n, key, fmt::format("must be true or false, got {}", toml_type_name(*n)));
  return n->as_boolean()->get();
}

std::string ConfigSection::required_string(const std::string& key) const {
  require(key);
  return string(key, "");
}

int64_t ConfigSection::integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) const {
  const toml::node* n = node(key);
  if (!n) return fallback;
  int64_t value = 0;
  if (n->is_integer()) {
    value = n->as_integer()->get();
  } else if (n->is_floating_point()) {
    // 1e10 is how people write big counts, so a whole float is taken; beyond 2^63 it cannot be an int64_t.
    const double real = n->as_floating_point()->get();
    constexpr double kTwoTo63 = 9223372036854775808.0;
    if (std::floor(real) != real && !std::isinf(real))
      throw error(*n, key, fmt::format("= {} is not a whole number", real));
    if (!(real >= -kTwoTo63 && real < kTwoTo63))
      throw error(*n, key, fmt::format("= {} is out of range [{}, {}]", real, min, max));
    value = static_cast<int64_t>(real);
  } else {
    throw error(*n, key, fmt::format("must be an integer, got {}", toml_type_name(*n)));
  }
  if (value < min || value > max) throw error(*n, key, fmt::format("= {} is out of range [{}, {}]", value, min, max));
  return value;
}

double ConfigSection::real(const std::string& key, double fallback, double min, double max) const {
  const toml::node* n = node(key);
  if (!n) return fallback;
  double value = 0;
  if (n->is_floating_point())
    value = n->as_floating_point()->get();
  else if (n->is_integer())
    value = static_cast<double>(n->as_integer()->get());
  else
    throw error(*n, key, fmt::format("must be a number, got {}", toml_type_name(*n)));
  if (!(value >= min && value <= max))
    throw error(*n, key, fmt::format("= {} is out of range [{}, {}]", value, min, max));
  return value;
}

std::vector<int> ConfigSection::integer_list(const std::string& key, int min, int max) const {
  const toml::node* n = node(key);
  if (!n) return {};
  if (!n->is_array()) throw error(*n, key, fmt::format("must be an array of integers, got {}", toml_type_name(*n)));
  std::vector<int> out;
  for (const auto& item : *n->as_array()) {
    if (!item.is_integer())
      throw error(item, key, fmt::format("entries must be integers, got {}", toml_type_name(item)));
    const int64_t v = item.as_integer()->get();
    if (v < min || v > max) throw error(item, key, fmt::format("entry {} is out of range [{}, {}]", v, min, max));
    out.push_back(static_cast<int>(v));
  }
  return out;
}

void ConfigSection::require(const std::string& key) const {
  if (!node(key))
    throw ConfigError(located(table_.source(), fmt::format("missing required key '{}' in {}", key, label_)));
}

core::uint128 ConfigSection::count(const std::string& key) const {
  const toml::node& n = *node(key);
  if (n.is_integer() && n.as_integer()->get() >= 0) return static_cast<core::uint128>(n.as_integer()->get());
  if (n.is_integer()) throw error(n, key, fmt::format("= {} is negative", n.as_integer()->get()));
  if (!n.is_string())
    throw error(n, key, fmt::format("must be an integer or a decimal string, got {}", toml_type_name(n)));
  const std::string& text = n.as_string()->get();
  const core::uint128 max = ~core::uint128{0};
  core::uint128 value = 0;
  for (char ch : text) {
    const unsigned digit = static_cast<unsigned>(ch - '0');
    if (digit > 9 || value > (max - digit) / 10)
      throw error(n, key, fmt::format("is {}; expected the decimal digits of a count below 2^128", quote_value(text)));
    value = value * 10 + digit;
  }
  if (text.empty()) throw error(n, key, "is an empty string; expected decimal digits");
  return value;
}

const toml::table* ConfigSection::table(const std::string& key) const {
  const toml::node* n = node(key);
  if (!n) return nullptr;
  if (!n->is_table()) throw error(*n, key, fmt::format("must be a table ([{}]), got {}", key, toml_type_name(*n)));
  return n->as_table();
}

} // namespace gsdk::host
