// search_fixture.hpp - loads test_nim (and graveler, for the batch playout tables) once per test
// program, and makes game instances with chosen parameters, as the host does.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace gsdk::test {

class SearchTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new host::PluginCatalog;
    catalog_->load_file(test_plugin_dir("valid") / "test_nim.so");
    catalog_->load_file(plugin_dir() / "graveler.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(catalog_->find("test_nim"), nullptr) << "test_nim.so did not load";
    ASSERT_NE(catalog_->find("graveler"), nullptr) << "graveler.so did not load";
  }

  // A game with parameters given as a TOML table, e.g. nim(toml::table{{"stones", 9}}).
  static std::unique_ptr<core::GameInstance> make(const std::string& name, const toml::table& params = {}) {
    const auto& tables = catalog_->find(name)->tables;
    return std::make_unique<core::GameInstance>(tables, host::resolve_params(*tables.game, params).values);
  }
  static std::unique_ptr<core::GameInstance> nim(const toml::table& params = {}) { return make("test_nim", params); }

  static host::PluginCatalog* catalog_;
};

inline host::PluginCatalog* SearchTest::catalog_ = nullptr;

} // namespace gsdk::test
