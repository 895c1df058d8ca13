// guarded_state.hpp - a state buffer with guard bytes on both sides, so that a check sees a plugin write
// outside the state_size bytes it declared.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::host::conformance {

class GuardedState {
public:
  static constexpr size_t kGuard = 64;
  static constexpr unsigned char kGuardByte = 0x5a;

  explicit GuardedState(uint32_t size) : size_(size), bytes_(size + 2 * kGuard, kGuardByte) {}
  GuardedState(uint32_t size, const core::StateBlob& state) : GuardedState(size) { assign(state); }

  void* data() { return bytes_.data() + kGuard; }
  const void* data() const { return bytes_.data() + kGuard; }
  core::StateBlob blob() const { return core::StateBlob(bytes_.begin() + kGuard, bytes_.begin() + kGuard + size_); }
  void assign(const core::StateBlob& s) { std::memcpy(data(), s.data(), size_); }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (bytes_[i] != kGuardByte || bytes_[kGuard + size_ + i] != kGuardByte) return false;
    return true;
  }

private:
  uint32_t size_;
  std::vector<unsigned char> bytes_;
};

} // namespace gsdk::host::conformance
