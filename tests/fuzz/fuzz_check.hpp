// fuzz_check.hpp - what every fuzz target shares: the input as text, and a failed property made a crash that
// libFuzzer records (with the property's description on stderr), since a wrong answer is a finding too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gsdk::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline void require(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property failed: %s\n", property);
  std::abort();
}

} // namespace gsdk::fuzz
