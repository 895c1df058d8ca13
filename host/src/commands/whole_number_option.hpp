// whole_number_option.hpp - unsigned command-line numbers checked against the text the user typed.
// Boost.Program_options reads an unsigned option with lexical_cast, which takes "-1" for 4294967295;
// this validator (Boost's own extension point, found by argument-dependent lookup) takes only decimal
// digits that fit the type and otherwise names the option, the text and what was expected.
#pragma once

#include <charconv>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

namespace gsdk::host {

template <typename T> struct WholeNumber { T value = 0; };

template <typename T> void validate(boost::any& out, const std::vector<std::string>& values, WholeNumber<T>*, int) {
  namespace po = boost::program_options;
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  T value{};
  const char* const end = text.data() + text.size();
  const auto [stop, status] = std::from_chars(text.data(), end, value);
  if (text.empty() || status != std::errc{} || stop != end) {
    po::error_with_option_name error(
        fmt::format("the argument ('%value%') for option '%canonical_option%' is invalid: expected a whole number "
                    "from 0 to {}",
                    std::numeric_limits<T>::max()));
    error.set_substitute("value", text);
    throw error;
  }
  out = WholeNumber<T>{value};
}

// An option taking a whole number of type T, optionally with a default.
template <typename T> boost::program_options::typed_value<WholeNumber<T>>* whole_number() {
  return boost::program_options::value<WholeNumber<T>>();
}
template <typename T> boost::program_options::typed_value<WholeNumber<T>>* whole_number(T fallback) {
  return whole_number<T>()->default_value(WholeNumber<T>{fallback}, std::to_string(fallback));
}

// The value of whole-number option `name` (which must be present or have a default).
template <typename T> T whole_number_of(const boost::program_options::variables_map& vm, const char* name) {
  return vm[name].as<WholeNumber<T>>().value;
}

} // namespace gsdk::host
