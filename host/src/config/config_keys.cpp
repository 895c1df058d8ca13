// config_keys.cpp - key declarations as a listing shows them.
#include "config/config_keys.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

// Bounds that are powers of two read better as such (2^53 rather than 9007199254740992).
std::string bound(int64_t value) {
  if (value > 1024 && (value & (value - 1)) == 0) return fmt::format("2^{}", std::log2(static_cast<double>(value)));
  if (value == INT64_MAX) return "2^63 - 1";
  if (value == INT64_MIN) return "-2^63";
  if (value == UINT32_MAX - 1) return "2^32 - 2";
  return fmt::format("{}", value);
}

} // namespace

KeyDoc describe(const IntegerKey& key) {
  return {key.name, "integer", key.required ? "required" : fmt::format("{}", key.fallback),
          fmt::format("[{}, {}]", bound(key.min), bound(key.max)), key.doc};
}

KeyDoc describe(const RealKey& key) {
  // Six significant digits: a default taken from a float setting (0.9f) reads as written, not as 0.8999999761581421.
  return {key.name, "number", fmt::format("{:.6g}", key.fallback), fmt::format("[{:.6g}, {:.6g}]", key.min, key.max),
          key.doc};
}

KeyDoc describe(const BooleanKey& key) {
  return {key.name, "boolean", key.fallback ? "true" : "false", "", key.doc};
}

KeyDoc describe(const StringKey& key) {
  std::string range;
  for (const std::string& choice : key.choices) range += (range.empty() ? "\"" : ", \"") + choice + "\"";
  const std::string fallback = key.required ? "required" : fmt::format("\"{}\"", key.fallback);
  return {key.name, "string", key.required || *key.fallback ? fallback : "none", range, key.doc};
}

KeyDoc describe(const OtherKey& key) {
  return {key.name, key.type, key.fallback, "", key.doc};
}

std::vector<std::string> key_names(const std::vector<KeyDoc>& keys) {
  std::vector<std::string> names;
  for (const KeyDoc& key : keys) names.push_back(key.name);
  return names;
}

} // namespace gsdk::host
