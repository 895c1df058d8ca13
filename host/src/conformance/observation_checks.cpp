// observation_checks.cpp - the checks of gsdk.observations.v1: a shape of rank 1..8 with extents >= 1 and a known
// element type; fill a pure function of the states writing exactly its blocks (every byte, nothing beside them);
// and, on a GPU, cuda_fill giving fill's bytes.
#include <algorithm>
#include <cstring>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::host::conformance {

namespace {

constexpr size_t kGuard = 64;
constexpr unsigned char kGuardByte = 0x5a;
constexpr size_t kMostStates = 256;

// Bytes of one state's observation, or a stop naming what is wrong with the shape or the type.
uint64_t observation_bytes(const CheckContext& context, Findings& findings) {
  const gsdk_observations& table = *context.tables().observations;
  constexpr uint32_t kSentinel = 0xdeadbeef;
  std::vector<uint32_t> extents(GSDK_OBSERVATION_MAX_RANK + 1, kSentinel);
  const uint32_t rank = table.shape(context.handle(), extents.data(), GSDK_OBSERVATION_MAX_RANK);
  if (rank < 1 || rank > GSDK_OBSERVATION_MAX_RANK)
    findings.stop(fmt::format("shape() returned rank {}, expected 1..{}", rank, GSDK_OBSERVATION_MAX_RANK));
  if (extents[GSDK_OBSERVATION_MAX_RANK] != kSentinel)
    findings.fail(fmt::format("shape() wrote past its capacity of {} extents", GSDK_OBSERVATION_MAX_RANK));
  std::vector<uint32_t> one(2, kSentinel);
  if (table.shape(context.handle(), one.data(), 1) != rank || one[1] != kSentinel || one[0] != extents[0])
    findings.fail(fmt::format("shape() with capacity 1 must return the same rank {} and write extents[0] = {} alone",
                              rank, extents[0]));
  uint64_t elements = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    if (extents[d] == 0) findings.stop(fmt::format("shape() gives extent 0 in dimension {}, expected >= 1", d));
    elements *= extents[d];
  }
  const int32_t type = table.element_type(context.handle());
  if (type != GSDK_ELEMENT_UINT8 && type != GSDK_ELEMENT_FLOAT32)
    findings.stop(fmt::format("element_type() is {}, expected GSDK_ELEMENT_UINT8 ({}) or GSDK_ELEMENT_FLOAT32 ({})",
                              type, GSDK_ELEMENT_UINT8, GSDK_ELEMENT_FLOAT32));
  return elements * (type == GSDK_ELEMENT_UINT8 ? 1 : 4);
}

void shape(CheckContext& context, Findings& findings) {
  observation_bytes(context, findings);
}

// The states of a few random games (terminal ones included), back to back, at most kMostStates of them.
std::vector<unsigned char> packed_states(const CheckContext& context, Findings& findings, uint32_t& count) {
  std::mt19937_64 random(37);
  std::vector<core::StateBlob> states = states_in_play(context, random, 8, findings);
  states.resize(std::min(states.size(), kMostStates));
  std::vector<unsigned char> packed;
  for (const core::StateBlob& s : states) packed.insert(packed.end(), s.begin(), s.end());
  count = static_cast<uint32_t>(states.size());
  return packed;
}

// fill's output for `count` states with guards around it, its body first set to `background`.
std::vector<unsigned char> guarded_fill(const CheckContext& context, const unsigned char* states, uint32_t count,
                                        uint64_t block, unsigned char background, Findings& findings) {
  std::vector<unsigned char> out(count * block + 2 * kGuard, kGuardByte);
  std::fill(out.begin() + kGuard, out.end() - kGuard, background);
  context.tables().observations->fill(context.handle(), states, count, out.data() + kGuard);
  if (!std::all_of(out.begin(), out.begin() + kGuard, [](unsigned char b) { return b == kGuardByte; }) ||
      !std::all_of(out.end() - kGuard, out.end(), [](unsigned char b) { return b == kGuardByte; }))
    findings.stop(fmt::format("fill() of {} states wrote outside its {} bytes", count, count * block));
  return {out.begin() + kGuard, out.end() - kGuard};
}

void fill(CheckContext& context, Findings& findings) {
  const uint64_t block = observation_bytes(context, findings);
  uint32_t count = 0;
  const std::vector<unsigned char> states = packed_states(context, findings, count);
  const auto zeros = guarded_fill(context, states.data(), count, block, 0x00, findings);
  const auto ones = guarded_fill(context, states.data(), count, block, 0xff, findings);
  if (zeros != ones) findings.fail("fill() leaves some bytes of its blocks unwritten (they keep what was there)");
  if (guarded_fill(context, states.data(), count, block, 0x00, findings) != zeros)
    findings.fail("fill() is not a pure function of the states: a second call wrote other bytes");
  const uint32_t size = context.game().state_size();
  for (uint32_t k = 0; k < count && !findings.failed(); ++k) {
    const auto alone = guarded_fill(context, states.data() + k * size, 1, block, 0x00, findings);
    if (!std::equal(alone.begin(), alone.end(), zeros.begin() + k * block))
      findings.fail(fmt::format("fill() of {} alone differs from its block in a batch of {}",
                                context.quote(states.data() + k * size), count));
  }
}

void cuda_fill(CheckContext& context, Findings& findings) {
  const gsdk_observations& table = *context.tables().observations;
  if (!table.cuda_fill) findings.skip("the table has no cuda_fill");
  const uint64_t block = observation_bytes(context, findings);
  uint32_t count = 0;
  const std::vector<unsigned char> states = packed_states(context, findings, count);
  const auto expected = guarded_fill(context, states.data(), count, block, 0x00, findings);
  core::DeviceArena arena(context.gpu(), states.size() + expected.size() + 1024);
  core::CudaStream stream(context.gpu());
  void* device_states = arena.allocate(states.size());
  void* device_observations = arena.allocate(expected.size());
  stream.copy_to_device(device_states, states.data(), states.size());
  if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
        return table.cuda_fill(context.handle(), device_states, count, context.gpu(), stream.handle(),
                               device_observations, error, size);
      }))
    findings.stop(fmt::format("cuda_fill() of {} states failed: {}", count, failure->message));
  std::vector<unsigned char> found(expected.size());
  stream.copy_to_host(found.data(), device_observations, found.size());
  stream.synchronize();
  for (uint32_t k = 0; k < count && !findings.failed(); ++k)
    if (!std::equal(found.begin() + k * block, found.begin() + (k + 1) * block, expected.begin() + k * block))
      findings.fail(fmt::format("cuda_fill() of {} differs from fill()",
                                context.quote(states.data() + k * context.game().state_size())));
}

} // namespace

std::vector<CheckSpec> observation_checks() {
  return {
      {"environment.observation_shape",
       "observations of rank 1..8, every extent >= 1, uint8 or float32, shape() within its capacity",
       {GSDK_TABLE_OBSERVATIONS},
       false,
       shape},
      {"environment.observation_fill",
       "fill() writes every byte of its blocks and none beside them, the same on every call, batch or alone",
       {GSDK_TABLE_OBSERVATIONS},
       false,
       fill},
      {"environment.observation_cuda_fill",
       "the device's cuda_fill() writes fill()'s bytes",
       {GSDK_TABLE_OBSERVATIONS},
       true,
       cuda_fill},
  };
}

} // namespace gsdk::host::conformance
