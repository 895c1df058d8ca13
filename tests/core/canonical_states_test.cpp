// canonical_states_test.cpp - GameInstance's canonical states for hashed perft (gsdk.perft_keys.v1, ABI 1.12): a
// byte copy for a game without the table (test_nim), the plugin's canonical states for one with it (test_tree, whose
// canonical state clears its `reserved` word), out of place and in place, and a failing call turned into an error
// naming the plugin, the table and the plugin's message.
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::GameInstance;
using gsdk::core::StateBlob;
using gsdk::test::contains;

// test_nim (no table) or test_tree under `params`; the plugins are loaded once per program.
std::unique_ptr<GameInstance> game(const std::string& name, const toml::table& params = {}) {
  static const std::unique_ptr<gsdk::host::PluginCatalog> catalog = [] {
    auto loaded = std::make_unique<gsdk::host::PluginCatalog>();
    loaded->load_file(gsdk::test::test_plugin_dir("valid") / "test_nim.so");
    loaded->load_file(gsdk::test::test_plugin_dir("valid") / "test_tree.so");
    return loaded;
  }();
  const gsdk::host::LoadedPlugin* plugin = catalog->find(name);
  if (!plugin) throw std::runtime_error(name + ".so did not load");
  return std::make_unique<GameInstance>(plugin->tables,
                                        gsdk::host::resolve_params(*plugin->tables.game, params).values);
}

// test_tree's state: {uint64_t hash; uint32_t ply; uint32_t reserved}.
StateBlob tree_state(uint64_t hash, uint32_t ply, uint32_t reserved) {
  StateBlob s(16);
  std::memcpy(s.data(), &hash, 8);
  std::memcpy(s.data() + 8, &ply, 4);
  std::memcpy(s.data() + 12, &reserved, 4);
  return s;
}

TEST(CanonicalStates, AGameWithoutTheTableGetsItsBytesCopied) {
  const auto nim = game("test_nim");
  EXPECT_FALSE(nim->has_canonical_states());
  StateBlob states = nim->initial_state();
  StateBlob second = states;
  nim->apply_move(second, 1);
  states.insert(states.end(), second.begin(), second.end());
  StateBlob out(states.size(), 0xee);
  nim->canonical_states(states.data(), 2, out.data());
  EXPECT_EQ(out, states);
  const StateBlob before = states;
  nim->canonical_states(states.data(), 2, states.data());
  EXPECT_EQ(states, before) << "in place, a copy onto itself changes nothing";
  nim->canonical_states(nullptr, 0, nullptr);
}

TEST(CanonicalStates, AGameWithTheTableGivesItsCanonicalStates) {
  const auto tree = game("test_tree");
  ASSERT_TRUE(tree->has_canonical_states());
  StateBlob states = tree_state(34, 0, 7);
  const StateBlob second = tree_state(99, 3, 0);
  states.insert(states.end(), second.begin(), second.end());
  StateBlob expected = tree_state(34, 0, 0);
  expected.insert(expected.end(), second.begin(), second.end());
  StateBlob out(states.size());
  tree->canonical_states(states.data(), 2, out.data());
  EXPECT_EQ(out, expected);
  tree->canonical_states(states.data(), 2, states.data());
  EXPECT_EQ(states, expected) << "in place";
}

TEST(CanonicalStates, AFailingCallNamesThePluginTheTableAndItsMessage) {
  const auto tree = game("test_tree", toml::table{{"keys_fault", 3}});
  const StateBlob state = tree_state(34, 0, 0);
  StateBlob out(state.size());
  try {
    tree->canonical_states(state.data(), 1, out.data());
    FAIL() << "a failing canonical() was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "plugin 'test_tree'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "gsdk.perft_keys.v1 canonical of 1 states failed")) << e.what();
    EXPECT_TRUE(contains(e.what(), "failing as asked (keys_fault 3)")) << e.what();
  }
}

} // namespace
