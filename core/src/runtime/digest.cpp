// digest.cpp - SHA-1 fingerprints of canonical result texts (Boost's header-only SHA-1).
#include "gsdk/core/runtime/digest.hpp"

#include <boost/uuid/detail/sha1.hpp>
#include <fmt/format.h>

namespace gsdk::core {

std::string sha1_digest(const std::string& canonical_text) {
  boost::uuids::detail::sha1 sha;
  sha.process_bytes(canonical_text.data(), canonical_text.size());
  unsigned int words[5];
  sha.get_digest(words);
  return fmt::format("sha1:{:08x}{:08x}{:08x}{:08x}{:08x}", words[0], words[1], words[2], words[3], words[4]);
}

} // namespace gsdk::core
