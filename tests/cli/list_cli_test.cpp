// list_cli_test.cpp - `gsdk list` shows every capability table a plugin provides by its ABI name (the
// Q-learning environment and trainers, CUDA tables, replay, ...), and `gsdk list --json` gives the same as
// data: plugins with name, version, ABI, path, description, players, flags, parameters and tables; refused
// files with their messages; CUDA. `gsdk list --names` gives the names alone.
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk/gsdk_plugin.h"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class ListCli : public ::testing::Test {
protected:
  Outcome list(std::vector<std::string> args) {
    args.insert(args.begin(), "list");
    return gsdk::test::gsdk_run(args, dir.path());
  }
  gsdk::test::TempDir dir;
};

const nlohmann::json* plugin_named(const nlohmann::json& doc, const std::string& name) {
  for (const nlohmann::json& p : doc["plugins"])
    if (p["name"] == name) return &p;
  return nullptr;
}

std::set<std::string> tables_of(const nlohmann::json& plugin) {
  std::set<std::string> out;
  for (const nlohmann::json& t : plugin["tables"]) out.insert(t.get<std::string>());
  return out;
}

TEST_F(ListCli, TextShowsEveryTableByItsAbiName) {
  const Outcome r = list({});
  ASSERT_EQ(r.status, 0) << describe(r);
  // minefield's Q-learning tables, which `gsdk list` used to leave out.
  const size_t minefield = r.out.find("\n  minefield ");
  ASSERT_NE(minefield, std::string::npos) << r.out;
  const std::string block = r.out.substr(minefield, r.out.find("\n\n", minefield + 1) - minefield);
  EXPECT_TRUE(contains(block, "gsdk.game.v1")) << block;
  EXPECT_TRUE(contains(block, "gsdk.environment.v1")) << block;
  EXPECT_TRUE(contains(block, "Q-learning environment")) << block;
  EXPECT_TRUE(contains(block, "gsdk.cpu_qlearning.v1")) << block;
  EXPECT_TRUE(contains(block, "CPU Q-learning trainer")) << block;
  EXPECT_TRUE(contains(r.out, "gsdk.cpu_playouts.v1")) << r.out;
  EXPECT_TRUE(contains(r.out, "CPU batch playouts (best SIMD here: ")) << r.out;
}

TEST_F(ListCli, JsonGivesTheSameAsData) {
  const Outcome text = list({});
  const Outcome r = list({"--json", "--plugin-dir", gsdk::test::test_plugin_dir("broken").string()});
  ASSERT_EQ(r.status, 0) << describe(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["abi"], std::to_string(GSDK_ABI_MAJOR) + "." + std::to_string(GSDK_ABI_MINOR));

  const nlohmann::json* graveler = plugin_named(doc, "graveler");
  ASSERT_NE(graveler, nullptr) << r.out;
  EXPECT_EQ((*graveler)["version"], "1.0.0");
  EXPECT_EQ((*graveler)["path"], (gsdk::test::plugin_dir() / "graveler.so").string());
  EXPECT_EQ((*graveler)["players"], 1);
  EXPECT_EQ((*graveler)["flags"], nlohmann::json::array({"chance"}));
  EXPECT_FALSE((*graveler)["description"].get<std::string>().empty());
  const std::set<std::string> graveler_tables = tables_of(*graveler);
  for (const char* t : {GSDK_TABLE_GAME, GSDK_TABLE_CPU_PLAYOUTS, GSDK_TABLE_REPLAY, GSDK_TABLE_SCORE_DISTRIBUTION})
    EXPECT_TRUE(graveler_tables.count(t)) << t << " missing from " << (*graveler)["tables"];
  bool rolls = false;
  for (const nlohmann::json& p : (*graveler)["parameters"]) {
    if (p["name"] != "rolls") continue;
    rolls = true;
    EXPECT_EQ(p["type"], "int");
    EXPECT_TRUE(p["default"].is_number_integer());
    EXPECT_EQ(p["range"].size(), 2u);
    EXPECT_FALSE(p["doc"].get<std::string>().empty());
  }
  EXPECT_TRUE(rolls) << (*graveler)["parameters"];

  const nlohmann::json* minefield = plugin_named(doc, "minefield");
  ASSERT_NE(minefield, nullptr) << r.out;
  const std::set<std::string> minefield_tables = tables_of(*minefield);
  EXPECT_TRUE(minefield_tables.count(GSDK_TABLE_ENVIRONMENT)) << (*minefield)["tables"];
  EXPECT_TRUE(minefield_tables.count(GSDK_TABLE_CPU_QLEARNING)) << (*minefield)["tables"];
  // Every table the text names is in the data, and the other way round.
  for (const nlohmann::json& p : doc["plugins"]) {
    if (p["path"].get<std::string>().find("/test_plugins/") != std::string::npos) continue;
    for (const std::string& t : tables_of(p)) EXPECT_TRUE(contains(text.out, " " + t + " ")) << t;
  }

  const nlohmann::json* nim = plugin_named(doc, "test_nim");
  ASSERT_NE(nim, nullptr) << "bin/test_plugins/broken holds a good copy of test_nim";
  EXPECT_EQ((*nim)["tables"], nlohmann::json::array({GSDK_TABLE_GAME}));
  EXPECT_EQ((*nim)["flags"], nlohmann::json::array());
  bool bogus = false;
  for (const nlohmann::json& refused : doc["refused"])
    if (refused["path"] == (gsdk::test::test_plugin_dir("broken") / "bogus.so").string()) {
      bogus = true;
      EXPECT_TRUE(contains(refused["message"].get<std::string>(), "not a shared object")) << refused;
    }
  EXPECT_TRUE(bogus) << doc["refused"];
  EXPECT_TRUE(doc["cuda"]["built_in"].is_boolean());
  EXPECT_TRUE(doc["cuda"]["devices"].is_array());
}

// `gsdk list --names` (what the shell completion offers as games): the loaded plugins' names, one a line, the same
// as --json's; it lists names alone, so --json or --algorithms beside it is a usage error.

TEST_F(ListCli, NamesAreTheLoadedGamesOneALine) {
  const Outcome names = list({"--names"});
  ASSERT_EQ(names.status, 0) << describe(names);
  const Outcome json = list({"--json"});
  ASSERT_EQ(json.status, 0) << describe(json);
  std::string expected;
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  for (const nlohmann::json& p : doc["plugins"]) expected += p["name"].get<std::string>() + "\n";
  EXPECT_EQ(names.out, expected);
  EXPECT_TRUE(contains(names.out, "othello\n")) << names.out;

  for (const char* other : {"--json", "--algorithms"}) {
    const Outcome refused = list({"--names", other});
    EXPECT_EQ(refused.status, 2) << describe(refused);
    EXPECT_TRUE(contains(refused.err, "--names lists the game names alone: use it without --json and --algorithms"))
        << refused.err;
  }
}

} // namespace
