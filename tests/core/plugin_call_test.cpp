// plugin_call_test.cpp - the error-buffer protocol written once (gsdk/core/runtime/plugin_call.hpp): an entry gets
// the host's one buffer size; a success returns nothing and formats nothing; a failure returns the status and the
// message, or throws "<what> failed: <message>"; a plugin that fills the buffer to its end without a NUL still
// gives a terminated message.
#include "gsdk/core/runtime/plugin_call.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gsdk::core {
namespace {

TEST(PluginCall, AnEntryGetsTheHostsBufferAndASuccessReportsNothing) {
  uint32_t seen_size = 0;
  const auto failure = call_entry([&](char* error, uint32_t size) {
    seen_size = size;
    error[0] = '\0';
    return GSDK_OK;
  });
  EXPECT_FALSE(failure.has_value());
  EXPECT_EQ(seen_size, kPluginMessageSize);
}

TEST(PluginCall, AFailureGivesItsStatusAndMessage) {
  const auto failure = call_entry([](char* error, uint32_t size) {
    std::snprintf(error, size, "%s", "depth 0 is below 1");
    return GSDK_ERR_INVALID_ARGUMENT;
  });
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->status, GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(failure->message, "depth 0 is below 1");
}

TEST(PluginCall, AMessageThatFillsTheBufferIsCutAtItsEnd) {
  const auto failure = call_entry([](char* error, uint32_t size) {
    std::memset(error, 'x', size); // no terminating NUL
    return GSDK_ERR_DEVICE;
  });
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->message, std::string(kPluginMessageSize - 1, 'x'));
}

TEST(PluginCall, CallPluginThrowsWhereAndTheMessageAndFormatsOnlyOnFailure) {
  int described = 0;
  const auto where = [&] {
    ++described;
    return std::string("game 'g': evaluate of 3 leaf states");
  };
  call_plugin([](char*, uint32_t) { return GSDK_OK; }, where);
  EXPECT_EQ(described, 0);
  try {
    call_plugin(
        [](char* error, uint32_t size) {
          std::snprintf(error, size, "%s", "no such state");
          return GSDK_ERR_INVALID_ARGUMENT;
        },
        where);
    FAIL() << "expected a throw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "game 'g': evaluate of 3 leaf states failed: no such state");
  }
  EXPECT_EQ(described, 1);
}

} // namespace
} // namespace gsdk::core
