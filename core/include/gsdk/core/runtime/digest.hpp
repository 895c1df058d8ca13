// digest.hpp - the one-line fingerprint results files carry: "sha1:" and the SHA-1 of a canonical text.
#pragma once

#include <string>

namespace gsdk::core {

std::string sha1_digest(const std::string& canonical_text);

} // namespace gsdk::core
