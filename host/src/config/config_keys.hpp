// config_keys.hpp - the keys of an experiment file's tables, each declared once with its type, default,
// range and meaning: the reader checks values against the declaration (config_section.hpp), and
// `gsdk list --algorithms` and the user guide's tables print the same declaration, so the three cannot
// disagree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsdk::host {

// How a key reads in a listing: "count", "integer", "1", "[1, 2^53]", "playouts to run".
struct KeyDoc {
  std::string name;
  std::string type;
  std::string fallback; // the default, or "required"
  std::string range;    // the accepted values; empty where the type says it all
  std::string doc;
};

// An integer; a float is accepted when it is integral (so `count = 1e9` works).
struct IntegerKey {
  const char* name;
  int64_t fallback;
  int64_t min;
  int64_t max;
  const char* doc;
  bool required = false;
};

// A real number; integers are accepted.
struct RealKey {
  const char* name;
  double fallback;
  double min;
  double max;
  const char* doc;
};

struct BooleanKey {
  const char* name;
  bool fallback;
  const char* doc;
};

// A string, one of `choices` when there are any.
struct StringKey {
  const char* name;
  const char* fallback;
  std::vector<std::string> choices;
  const char* doc;
  bool required = false;
};

// A key its algorithm reads by hand (an array of tables, one of several types, ...), declared for the listing.
struct OtherKey {
  const char* name;
  const char* type;
  const char* fallback;
  const char* doc;
};

KeyDoc describe(const IntegerKey& key);
KeyDoc describe(const RealKey& key);
KeyDoc describe(const BooleanKey& key);
KeyDoc describe(const StringKey& key);
KeyDoc describe(const OtherKey& key);

// The names of `keys`, for a table's list of valid keys.
std::vector<std::string> key_names(const std::vector<KeyDoc>& keys);

} // namespace gsdk::host
