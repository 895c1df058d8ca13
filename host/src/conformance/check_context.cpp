// check_context.cpp - a check's game instance and its messages' state texts.
#include "conformance/check_context.hpp"

#include <cstring>

namespace gsdk::host::conformance {

namespace {
constexpr size_t kQuotedLength = 240;
}

CheckContext::CheckContext(const CheckSubject& subject)
    : subject_(subject), game_(std::make_unique<core::GameInstance>(subject.plugin->tables, subject.parameters)) {}

std::string CheckContext::quote(const void* state) const {
  core::StateBlob blob(game_->state_size());
  std::memcpy(blob.data(), state, blob.size());
  return quote(blob);
}

std::string CheckContext::quote(const core::StateBlob& state) const {
  std::string text = game_->state_to_string(state);
  if (text.size() > kQuotedLength) text = text.substr(0, kQuotedLength) + "...";
  return "\"" + text + "\"";
}

} // namespace gsdk::host::conformance
