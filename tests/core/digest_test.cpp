// digest_test.cpp - core::sha1_digest (gsdk/core/runtime/digest.hpp) is the SHA-1 of FIPS 180's test vectors, and
// of a text longer than one 64-byte block, in the "sha1:" form every results file carries.
#include <string>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/digest.hpp"

namespace {

using gsdk::core::sha1_digest;

TEST(Sha1Digest, MatchesThePublishedTestVectors) {
  EXPECT_EQ(sha1_digest(""), "sha1:da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(sha1_digest("abc"), "sha1:a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(sha1_digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "sha1:84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(sha1_digest(std::string(1000000, 'a')), "sha1:34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1Digest, BytesAboveAsciiAndZerosCount) {
  EXPECT_NE(sha1_digest(std::string("a\0b", 3)), sha1_digest("ab"));
  EXPECT_NE(sha1_digest("\xff"), sha1_digest("\x7f"));
}

} // namespace
