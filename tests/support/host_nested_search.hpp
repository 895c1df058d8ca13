// host_nested_search.hpp - the SDK's nested-search routines (gsdk/nested/*_search.hpp) run on the host over a
// game's device rules, one search at a time, with memory laid out as the kernels lay it out (the workspace one
// slot of several interleaved): what the host-side template tests compare with core's CPU searches, and the
// GPU tests with a plugin's CUDA tables.
#pragma once

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/nested/level1_search.hpp"
#include "gsdk/nested/level2_search.hpp"
#include "gsdk/nested/nrpa_search.hpp"

namespace gsdk::test {

// A search's workspace: slot 1 of 3 interleaved ones; the helpers below check that the other slots' words stay
// untouched.
class HostWorkspace {
public:
  static constexpr uint32_t kSlots = 3;
  static constexpr uint32_t kUntouched = 0xdeadbeefu;
  explicit HostWorkspace(uint32_t words) : words_(words * kSlots, kUntouched) {}
  nested::StridedWords slot() { return {words_.data() + 1, kSlots}; }
  bool others_untouched() const {
    for (size_t w = 0; w < words_.size(); ++w)
      if (w % kSlots != 1 && words_[w] != kUntouched) return false;
    return true;
  }

private:
  std::vector<uint32_t> words_;
};

// The game's state in a blob of the per-state table.
template <typename State> State state_of(const core::StateBlob& blob) {
  State s;
  std::memcpy(&s, blob.data(), sizeof s);
  return s;
}

struct HostLevel1 {
  nested::Level1Found found;
  std::vector<uint32_t> moves;
};

template <typename Rules>
HostLevel1 host_level1_search(const Rules& rules, const core::StateBlob& start, uint64_t seed, uint64_t first_stream,
                              const uint32_t* stop = nullptr) {
  auto s = state_of<typename Rules::State>(start);
  HostWorkspace workspace(rules.workspace_words());
  HostLevel1 run{{}, std::vector<uint32_t>(rules.max_game_length())};
  run.found = nested::level1_search(rules, rules.search_position(s), workspace.slot(), seed, first_stream,
                                    run.moves.data(), stop);
  EXPECT_TRUE(workspace.others_untouched()) << "a search wrote outside its workspace slot";
  run.moves.resize(run.found.move_count);
  return run;
}

struct HostLevel2 {
  gsdk_level2_result found;
  std::vector<uint32_t> moves;
  std::vector<uint32_t> record;
};

template <typename Rules>
HostLevel2 host_level2_search(const Rules& rules, const core::StateBlob& start, uint64_t seed, uint64_t first_stream,
                              uint64_t id, const uint32_t* stop = nullptr) {
  const auto s = state_of<typename Rules::State>(start);
  HostWorkspace workspace(rules.workspace_words());
  std::vector<uint64_t> positions(2 * rules.search_words());
  std::vector<uint32_t> sequences(2 * rules.max_game_length());
  HostLevel2 run{{}, std::vector<uint32_t>(rules.max_game_length()), std::vector<uint32_t>(rules.max_game_length())};
  const nested::Level2Scratch scratch{positions.data(), positions.data() + rules.search_words(), sequences.data(),
                                      sequences.data() + rules.max_game_length()};
  run.found = nested::level2_search(rules, s, &first_stream, &id, scratch, workspace.slot(), seed, run.moves.data(),
                                    run.record.data(), stop);
  run.moves.resize(run.found.move_count);
  EXPECT_TRUE(workspace.others_untouched()) << "a search wrote outside its workspace slot";
  run.record.resize(run.found.record_move_count);
  return run;
}

struct HostNrpa {
  gsdk_nrpa_result found;
  std::vector<uint32_t> moves;
};

template <typename Rules>
HostNrpa host_nrpa_search(const Rules& rules, uint64_t seed, uint32_t level, uint32_t iterations, double alpha,
                          std::vector<double> policy, uint64_t first_stream, const uint32_t* stop = nullptr) {
  const uint32_t codes = rules.code_count(), length = rules.max_game_length();
  std::vector<double> lower(uint64_t{level - 1} * codes);
  std::vector<typename Rules::Step> steps(uint64_t{level + 1} * length);
  std::vector<uint32_t> delta_codes(nested::deferred_deltas(rules));
  std::vector<double> delta_values(nested::deferred_deltas(rules));
  const nested::NrpaBuffers<typename Rules::Step> buffers{policy.data(),       lower.data(),
                                                          steps.data(),        delta_codes.data(),
                                                          delta_values.data(), nested::deferred_deltas(rules)};
  HostWorkspace workspace(rules.workspace_words());
  HostNrpa run{{}, std::vector<uint32_t>(length)};
  run.found = nested::nrpa_search(rules, nested::NrpaRun{level, iterations, alpha, seed, codes, length}, buffers, 0,
                                  workspace.slot(), &first_stream, run.moves.data(), stop);
  EXPECT_TRUE(workspace.others_untouched()) << "a search wrote outside its workspace slot";
  run.moves.resize(run.found.move_count);
  return run;
}

} // namespace gsdk::test
