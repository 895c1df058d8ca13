// chain_fixture.hpp - loads test_chain.so (the divisor chain puzzle, tests/test_plugins/test_chain*) once per
// test program and makes instances of it with a chosen count of numbers, as the host does.
#pragma once

#include <memory>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace gsdk::test {

class ChainTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new host::PluginCatalog;
    catalog_->load_file(test_plugin_dir("valid") / "test_chain.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(catalog_->find("test_chain"), nullptr)
        << "test_chain.so did not load: " << (catalog_->problems().empty() ? "" : catalog_->problems()[0].message);
  }

  static std::unique_ptr<core::GameInstance> chain(uint32_t numbers) {
    const auto& tables = catalog_->find("test_chain")->tables;
    const toml::table params{{"numbers", static_cast<int64_t>(numbers)}};
    return std::make_unique<core::GameInstance>(tables, host::resolve_params(*tables.game, params).values);
  }

  static host::PluginCatalog* catalog_;
};

inline host::PluginCatalog* ChainTest::catalog_ = nullptr;

} // namespace gsdk::test
