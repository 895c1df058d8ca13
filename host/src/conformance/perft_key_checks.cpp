// perft_key_checks.cpp - the checks of gsdk.perft_keys.v1 over the states of random games: canonical writes its
// states and nothing beside them, leaves its input as it was, is idempotent (canonical(c) == c byte for byte), gives
// the same bytes in place, in a batch and alone, and keeps perft (the canonical state's counts at depths 1..3 are
// the state's, counted by the per-state rules); and, on a GPU, cuda_canonical gives canonical's bytes, out of place
// and in place.
#include <algorithm>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::host::conformance {

namespace {

constexpr size_t kMostStates = 512;            // states of random games checked
constexpr size_t kPerftStates = 24;            // of those, spread over them, the ones whose perft is compared
constexpr uint32_t kDeepest = 3;               // perft depths 1..kDeepest
constexpr core::uint128 kLargestTree = 100000; // deeper depths stop once a count passes this
constexpr size_t kGuard = 64;
constexpr unsigned char kGuardByte = 0xa5;

// The states of a few random games (terminal ones included), at most kMostStates spread evenly over them, packed
// back to back.
std::vector<unsigned char> sampled_states(const CheckContext& context, Findings& findings, uint32_t& count) {
  std::mt19937_64 random(53);
  const std::vector<core::StateBlob> states = states_in_play(context, random, 4, findings);
  if (states.empty()) findings.stop("no random game to take states from");
  count = static_cast<uint32_t>(std::min(states.size(), kMostStates));
  std::vector<unsigned char> packed;
  for (uint32_t k = 0; k < count; ++k) {
    const core::StateBlob& s = states[k * states.size() / count];
    packed.insert(packed.end(), s.begin(), s.end());
  }
  return packed;
}

// canonical() of `count` packed states out of place, with guards around its output; stops when it fails, writes
// beside its states or changes its input.
std::vector<unsigned char> canonical(const CheckContext& context, const unsigned char* states, uint32_t count,
                                     Findings& findings) {
  const size_t bytes = size_t{count} * context.game().state_size();
  const std::vector<unsigned char> input(states, states + bytes);
  std::vector<unsigned char> out(bytes + 2 * kGuard, kGuardByte);
  if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
        return context.tables().perft_keys->canonical(context.handle(), states, count, out.data() + kGuard, error,
                                                      size);
      }))
    findings.stop(
        fmt::format("canonical() of {} states failed (status {}): {}", count, failure->status, failure->message));
  const auto guard_kept = [](auto first, auto last) {
    return std::all_of(first, last, [](unsigned char b) { return b == kGuardByte; });
  };
  if (!guard_kept(out.begin(), out.begin() + kGuard) || !guard_kept(out.end() - kGuard, out.end()))
    findings.stop(fmt::format("canonical() of {} states wrote outside its {} bytes", count, bytes));
  if (!std::equal(input.begin(), input.end(), states))
    findings.stop("canonical() out of place changed its input states");
  return {out.begin() + kGuard, out.end() - kGuard};
}

// The first state k where `found` differs from `expected` (count packed states each), or count.
uint32_t first_difference(const std::vector<unsigned char>& expected, const std::vector<unsigned char>& found,
                          uint32_t size, uint32_t count) {
  for (uint32_t k = 0; k < count; ++k)
    if (!std::equal(expected.begin() + size_t{k} * size, expected.begin() + size_t{k + 1} * size,
                    found.begin() + size_t{k} * size))
      return k;
  return count;
}

// perft(state) == perft(canonical state) at depths 1..kDeepest, by the per-state rules.
void compare_perft(const CheckContext& context, const unsigned char* state, const unsigned char* key,
                   Findings& findings) {
  const uint32_t size = context.game().state_size();
  const core::StateBlob s(state, state + size), c(key, key + size);
  for (uint32_t depth = 1; depth <= kDeepest; ++depth) {
    const core::uint128 expected = core::generic_perft(context.game(), s, depth);
    const core::uint128 found = core::generic_perft(context.game(), c, depth);
    if (found != expected) {
      findings.fail(fmt::format("perft({}, {}) = {}, but its canonical state {} counts {}", context.quote(s), depth,
                                core::to_string(expected), context.quote(c), core::to_string(found)));
      return;
    }
    if (expected > kLargestTree) return;
  }
}

void canonical_states(CheckContext& context, Findings& findings) {
  const uint32_t size = context.game().state_size();
  uint32_t count = 0;
  const std::vector<unsigned char> states = sampled_states(context, findings, count);
  const std::vector<unsigned char> keys = canonical(context, states.data(), count, findings);

  const std::vector<unsigned char> again = canonical(context, keys.data(), count, findings);
  if (const uint32_t k = first_difference(keys, again, size, count); k < count)
    findings.fail(fmt::format("canonical() is not idempotent: {} becomes {}, whose canonical state is {} (canonical(c) "
                              "must be c byte for byte)",
                              context.quote(states.data() + size_t{k} * size),
                              context.quote(keys.data() + size_t{k} * size),
                              context.quote(again.data() + size_t{k} * size)));

  std::vector<unsigned char> in_place = states;
  if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
        return context.tables().perft_keys->canonical(context.handle(), in_place.data(), count, in_place.data(), error,
                                                      size);
      }))
    findings.stop(fmt::format("canonical() of {} states in place failed (status {}): {}", count, failure->status,
                              failure->message));
  if (const uint32_t k = first_difference(keys, in_place, size, count); k < count)
    findings.fail(fmt::format(
        "canonical() of {} in place gives {}, out of place {}", context.quote(states.data() + size_t{k} * size),
        context.quote(in_place.data() + size_t{k} * size), context.quote(keys.data() + size_t{k} * size)));

  const uint32_t step = std::max<uint32_t>(1, count / static_cast<uint32_t>(kPerftStates));
  for (uint32_t k = 0; k < count && !findings.failed(); k += step) {
    const unsigned char* state = states.data() + size_t{k} * size;
    const std::vector<unsigned char> alone = canonical(context, state, 1, findings);
    if (!std::equal(alone.begin(), alone.end(), keys.begin() + size_t{k} * size))
      findings.fail(fmt::format("canonical() of {} alone gives {}, in a batch of {} {}", context.quote(state),
                                context.quote(alone.data()), count, context.quote(keys.data() + size_t{k} * size)));
    compare_perft(context, state, alone.data(), findings);
  }
}

void cuda_canonical_states(CheckContext& context, Findings& findings) {
  const gsdk_perft_keys& table = *context.tables().perft_keys;
  if (!table.cuda_canonical) findings.skip("the table has no cuda_canonical");
  const uint32_t size = context.game().state_size();
  uint32_t count = 0;
  const std::vector<unsigned char> states = sampled_states(context, findings, count);
  const std::vector<unsigned char> expected = canonical(context, states.data(), count, findings);
  core::DeviceArena arena(context.gpu(), 2 * states.size() + 1024);
  core::CudaStream stream(context.gpu());
  void* device_states = arena.allocate(states.size());
  void* device_keys = arena.allocate(states.size());
  stream.copy_to_device(device_states, states.data(), states.size());
  std::vector<unsigned char> found(states.size());
  for (const bool in_place : {false, true}) {
    void* out = in_place ? device_states : device_keys;
    if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
          return table.cuda_canonical(context.handle(), device_states, count, out, stream.handle(), error, size);
        }))
      findings.stop(fmt::format("cuda_canonical() of {} states{} failed (status {}): {}", count,
                                in_place ? " in place" : "", failure->status, failure->message));
    stream.copy_to_host(found.data(), out, found.size());
    stream.synchronize();
    if (const uint32_t k = first_difference(expected, found, size, count); k < count)
      findings.fail(fmt::format("cuda_canonical(){} of {} gives {}, canonical() {}", in_place ? " in place" : "",
                                context.quote(states.data() + size_t{k} * size),
                                context.quote(found.data() + size_t{k} * size),
                                context.quote(expected.data() + size_t{k} * size)));
  }
}

} // namespace

std::vector<CheckSpec> perft_key_checks() {
  return {
      {"perft.canonical_states",
       "canonical() is idempotent, keeps perft at depths 1..3, the same in place, in a batch and alone, writing only "
       "its states",
       {GSDK_TABLE_PERFT_KEYS},
       false,
       canonical_states},
      {"perft.cuda_canonical_states",
       "the device's cuda_canonical() writes canonical()'s bytes, out of place and in place",
       {GSDK_TABLE_PERFT_KEYS},
       true,
       cuda_canonical_states},
  };
}

} // namespace gsdk::host::conformance
