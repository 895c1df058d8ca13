// whole_number_option.hpp - unsigned command-line numbers checked against the text the user typed.
// Boost.Program_options reads an unsigned option with lexical_cast, which takes "-1" for 4294967295;
// this validator (Boost's own extension point, found by argument-dependent lookup) takes decimal digits, or
// scientific notation that denotes a whole number (1e6, 2.5e3: as configs and agent specs accept), that fit the
// type, and otherwise names the option, the text and what was expected. The notation is read exactly, digit by
// digit, not through a double, so every value up to the type's maximum is reached.
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

// The decimal digits of the whole number `text` writes as DIGITS[.DIGITS][(e|E)[+]DIGITS], or "" when it
// writes none (a sign, a fraction that does not vanish, a negative exponent, anything else).
inline std::string whole_number_digits(const std::string& text) {
  const size_t exponent_at = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, exponent_at);
  const size_t point = mantissa.find('.');
  const std::string whole = mantissa.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : mantissa.substr(point + 1);
  const auto all_digits = [](const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!all_digits(whole) || (point != std::string::npos && !all_digits(fraction))) return "";
  size_t shift = 0;
  if (exponent_at != std::string::npos) {
    std::string exponent = text.substr(exponent_at + 1);
    if (!exponent.empty() && exponent.front() == '+') exponent.erase(0, 1);
    // Beyond 40 places every nonzero mantissa overflows a 128-bit integer, so a longer exponent is refused here.
    if (!all_digits(exponent) || exponent.size() > 2) return "";
    shift = std::stoul(exponent);
  }
  std::string digits = whole + fraction;
  if (shift < fraction.size()) {
    const size_t dropped = fraction.size() - shift;
    if (digits.find_first_not_of('0', digits.size() - dropped) != std::string::npos) return "";
    digits.resize(digits.size() - dropped);
  } else {
    digits.append(shift - fraction.size(), '0');
  }
  return digits;
}

template <typename T> void validate(boost::any& out, const std::vector<std::string>& values, WholeNumber<T>*, int) {
  namespace po = boost::program_options;
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  const std::string digits = whole_number_digits(text);
  T value{};
  const char* const end = digits.data() + digits.size();
  const auto [stop, status] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || status != std::errc{} || stop != end) {
    po::error_with_option_name error(
        fmt::format("the argument ('%value%') for option '%canonical_option%' is invalid: expected a whole number "
                    "from 0 to {} (digits, or like 1e6)",
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
