// dict_config.cpp - a dict's JSON as TOML text, written by toml++ (its tables keep their keys sorted by name, so the
// lines of error locations follow that order, not the dict's).
#include "dict_config.hpp"

#include <cstdint>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "config/config_error.hpp"

namespace gsdk::python {

namespace {

using Json = nlohmann::json;

toml::table table_of(const Json& object, const std::string& key);
toml::array array_of(const Json& list, const std::string& key);

// Hands `add` the TOML value of one JSON value at `key` (dotted, for messages). Instantiated once for tables and once
// for arrays: nested values go through table_of and array_of, which are no templates.
template <typename Add> void convert(const Json& value, const std::string& key, Add&& add) {
  switch (value.type()) {
  case Json::value_t::object:
    add(table_of(value, key));
    return;
  case Json::value_t::array:
    add(array_of(value, key));
    return;
  case Json::value_t::string:
    add(value.get<std::string>());
    return;
  case Json::value_t::boolean:
    add(value.get<bool>());
    return;
  case Json::value_t::number_integer:
    add(value.get<int64_t>());
    return;
  case Json::value_t::number_unsigned:
    if (value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      throw host::ConfigError(
          fmt::format("{}: key '{}': {} is beyond TOML's 64-bit integers", kDictSource, key, value.get<uint64_t>()));
    add(static_cast<int64_t>(value.get<uint64_t>()));
    return;
  case Json::value_t::number_float:
    add(value.get<double>());
    return;
  default:
    throw host::ConfigError(
        fmt::format("{}: key '{}': None has no TOML value; leave the key out for its default", kDictSource, key));
  }
}

toml::table table_of(const Json& object, const std::string& key) {
  toml::table table;
  for (const auto& [name, value] : object.items())
    convert(value, key.empty() ? name : key + "." + name, [&](auto&& v) { table.insert(name, std::move(v)); });
  return table;
}

toml::array array_of(const Json& list, const std::string& key) {
  toml::array array;
  for (std::size_t i = 0; i < list.size(); ++i)
    convert(list[i], fmt::format("{}[{}]", key, i), [&](auto&& v) { array.push_back(std::move(v)); });
  return array;
}

} // namespace

std::string dict_as_toml(const std::string& json_text) {
  const Json document = Json::parse(json_text);
  if (!document.is_object())
    throw host::ConfigError(
        fmt::format("{}: an experiment is a dict of keys, got {}", kDictSource, document.type_name()));
  std::ostringstream text;
  text << toml::toml_formatter(table_of(document, ""));
  return text.str();
}

} // namespace gsdk::python
