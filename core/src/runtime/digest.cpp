// digest.cpp - SHA-1 fingerprints of canonical result texts, through OpenSSL's EVP interface (libcrypto, linked
// statically: cmake/Dependencies.cmake).
#include "gsdk/core/runtime/digest.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <openssl/evp.h>

namespace gsdk::core {

std::string sha1_digest(const std::string& canonical_text) {
  unsigned char bytes[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(canonical_text.data(), canonical_text.size(), bytes, &size, EVP_sha1(), nullptr) != 1 || size != 20)
    throw std::runtime_error("OpenSSL's SHA-1 (EVP_Digest) failed");
  std::string digest = "sha1:";
  for (unsigned int i = 0; i < size; ++i) digest += fmt::format("{:02x}", bytes[i]);
  return digest;
}

} // namespace gsdk::core
