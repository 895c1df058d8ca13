// game_instance.cpp - creating a game instance and the per-state helpers.
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::core {

GameInstance::GameInstance(const PluginTables& tables, std::vector<gsdk_param_value> values)
    : tables_(tables), values_(std::move(values)) {
  const auto failure = call_entry([&](char* error, uint32_t size) {
    return game().create(values_.data(), static_cast<uint32_t>(values_.size()), &handle_, error, size);
  });
  if (failure || !handle_)
    throw std::invalid_argument(
        fmt::format("game '{}' refused its parameters: {}", game().name, failure ? failure->message : ""));
  state_size_ = game().state_size(handle_);
  max_moves_ = game().max_moves(handle_);
  int64_t lo = 0, hi = 0;
  game().score_range(handle_, &lo, &hi);
  if (hi < lo || hi - lo > (1 << 24)) {
    game().destroy(handle_);
    throw std::runtime_error(
        fmt::format("{}: game '{}' declares an unusable score range [{}, {}]", tables_.path, game().name, lo, hi));
  }
  score_range_ = {lo, hi};
}

GameInstance::~GameInstance() {
  if (handle_) game().destroy(handle_);
}

StateBlob GameInstance::initial_state() const {
  StateBlob s(state_size_);
  game().initial_state(handle_, s.data());
  return s;
}

std::string GameInstance::state_to_string(const StateBlob& s) const {
  std::string text(256, '\0');
  const uint32_t needed = game().state_to_string(handle_, s.data(), text.data(), static_cast<uint32_t>(text.size()));
  if (needed >= text.size()) {
    text.assign(needed + 1, '\0');
    game().state_to_string(handle_, s.data(), text.data(), static_cast<uint32_t>(text.size()));
  }
  text.resize(needed);
  return text;
}

std::string GameInstance::move_to_string(const StateBlob& s, uint32_t move) const {
  char buffer[128] = {};
  const uint32_t needed = game().move_to_string(handle_, s.data(), move, buffer, sizeof buffer);
  return std::string(buffer, needed < sizeof buffer ? needed : sizeof buffer - 1);
}

StateBlob GameInstance::state_from_string(const std::string& text) const {
  StateBlob s(state_size_);
  if (const auto failure = call_entry([&](char* error, uint32_t size) {
        return game().state_from_string(handle_, text.c_str(), s.data(), error, size);
      }))
    throw std::invalid_argument(failure->message);
  return s;
}

uint32_t GameInstance::checked_legal_moves(const StateBlob& s, std::vector<uint32_t>& moves) const {
  const uint32_t n = legal_moves(s, moves.data(), nullptr);
  if (n > moves.size())
    throw std::runtime_error(
        fmt::format("game '{}' returned {} legal moves, more than its max_moves {}", game().name, n, moves.size()));
  return n;
}

void GameInstance::require_moves_in_live_state(const StateBlob& s, uint32_t n) const {
  if (n >= 1 && n <= max_moves_) return;
  throw std::runtime_error(
      fmt::format("game '{}' returned {} legal moves in the non-terminal state '{}' (expected 1 to "
                  "its max_moves {})",
                  game().name, n, state_to_string(s), max_moves_));
}

void GameInstance::canonical_states(const unsigned char* states, uint32_t count, unsigned char* out) const {
  if (!tables_.perft_keys) {
    if (out != states && count != 0) std::memcpy(out, states, size_t{count} * state_size_);
    return;
  }
  if (const auto failure = call_entry([&](char* error, uint32_t size) {
        return tables_.perft_keys->canonical(handle_, states, count, out, error, size);
      }))
    throw std::runtime_error(fmt::format("plugin '{}' ({}): {} canonical of {} states failed (status {}): {}",
                                         tables_.name(), tables_.path, GSDK_TABLE_PERFT_KEYS, count, failure->status,
                                         failure->message));
}

} // namespace gsdk::core
