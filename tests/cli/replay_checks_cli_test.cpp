// replay_checks_cli_test.cpp - `gsdk replay` checks everything a playouts results file claims that it can
// recompute (digest, histogram, moments, status, plugin version, parameters, the best and worst playouts'
// scores; a gsdk version mismatch is a warning), and refuses a value of the wrong type or range naming its
// JSON pointer (exit 2) instead of converting it; a game it cannot find, run from a plugin of another folder, gets
// that folder to pass with --plugin-dir.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;
using nlohmann::json;

class ReplayChecks : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "exp.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\nseed = 5\n[params]\n"
                                             "rolls = 40\n[playouts]\ncount = 10000\n[run]\ndevice = \"cpu\"\n");
    const Outcome r = run({"run", "exp.toml", "-q", "--out", "r.json"});
    ASSERT_EQ(r.status, 0) << describe(r);
    original = json::parse(gsdk::test::read_file(dir / "r.json"));
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  // Replays the results file with `change` made to it.
  Outcome replay_changed(const std::function<void(json&)>& change) {
    json changed = original;
    change(changed);
    gsdk::test::write_file(dir / "changed.json", changed.dump());
    return run({"replay", "changed.json"});
  }

  gsdk::test::TempDir dir;
  json original;
};

TEST_F(ReplayChecks, AnUntouchedFileAgrees) {
  const Outcome r = run({"replay", "r.json"});
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "the results file agrees with its replay and with itself")) << r.out;
  EXPECT_FALSE(contains(r.out, "MISMATCH")) << r.out;
}

TEST_F(ReplayChecks, EveryRecomputableClaimIsChecked) {
  const auto mismatch = [&](const std::function<void(json&)>& change, const std::string& expected) {
    const Outcome r = replay_changed(change);
    EXPECT_EQ(r.status, 1) << expected << "\n" << describe(r);
    EXPECT_TRUE(contains(r.out, "MISMATCH: " + expected)) << r.out;
  };
  mismatch([](json& j) { j["digest"] = "0000000000000000000000000000000000000000"; },
           "the digest is 0000000000000000000000000000000000000000, but the result it stands for has digest");
  mismatch(
      [](json& j) {
        auto& counts = j["result"]["histogram"]["counts"];
        for (auto& c : counts)
          if (c.get<uint64_t>() > 0) {
            c = c.get<uint64_t>() + 1;
            break;
          }
      },
      "the histogram counts 10001 playouts, the result says 10000");
  mismatch([](json& j) { j["result"]["mean"] = j["result"]["mean"].get<double>() + 0.5; }, "the mean is ");
  mismatch([](json& j) { j["experiment"]["config"]["playouts"]["count"] = 20000; },
           "the status is \"complete\", but the run counted 10000 of the config's 20000 playouts");
  mismatch([](json& j) { j["game"]["plugin"]["version"] = "9.9.9"; },
           "plugin 'graveler' is version 1.0.0 here, the file was made with version 9.9.9");
  mismatch([](json& j) { j["game"]["params"].erase("rolls"); }, "the game's parameters resolve to {\"rolls\":");
  mismatch([](json& j) { j["game"]["params"]["rolls"] = 41; }, "the histogram has 41 bins, the game's scores need 42");
  const std::string worst = original["result"]["worst"]["playout"].dump();
  mismatch([](json& j) { j["result"]["worst"]["score"] = j["result"]["worst"]["score"].get<int64_t>() + 1; },
           "the worst playout " + worst + " scores ");
}

// A run may load its plugin from any folder (--plugin-dir); the results file records the plugin's path, so a replay
// that does not find the game says which folder to pass.
TEST_F(ReplayChecks, AGameFromAnotherFolderIsFoundWithTheFolderReplaySays) {
  const std::string folder = gsdk::test::test_plugin_dir("valid").string();
  gsdk::test::write_file(dir / "nim.toml", "game = \"test_nim\"\nalgorithm = \"playouts\"\nseed = 3\n[playouts]\n"
                                           "count = 100\n[run]\ndevice = \"cpu\"\n");
  const Outcome ran = run({"run", "nim.toml", "-q", "--out", "nim.json", "--plugin-dir", folder});
  ASSERT_EQ(ran.status, 0) << describe(ran);
  const Outcome lost = run({"replay", "nim.json"});
  EXPECT_EQ(lost.status, 2) << describe(lost);
  EXPECT_TRUE(contains(lost.err, "nim.json: /game/name: unknown game 'test_nim'")) << lost.err;
  EXPECT_TRUE(contains(lost.err, "the run loaded the plugin '" + folder + "/test_nim.so': pass --plugin-dir '" +
                                     folder + "' to replay it"))
      << lost.err;
  const Outcome found = run({"replay", "nim.json", "--plugin-dir", folder});
  EXPECT_EQ(found.status, 0) << describe(found);
  // A plugin that has gone: the message says so.
  json moved = json::parse(gsdk::test::read_file(dir / "nim.json"));
  moved["game"]["plugin"]["path"] = (dir / "gone" / "test_nim.so").string();
  gsdk::test::write_file(dir / "moved.json", moved.dump());
  const Outcome gone = run({"replay", "moved.json"});
  EXPECT_EQ(gone.status, 2) << describe(gone);
  EXPECT_TRUE(contains(gone.err, "test_nim.so', which is no longer there: pass --plugin-dir <folder>")) << gone.err;
}

TEST_F(ReplayChecks, AnotherGsdkVersionIsAWarning) {
  const Outcome r = replay_changed([](json& j) { j["gsdk"]["version"] = "0.0.1"; });
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "gsdk: warning: changed.json was made by gsdk 0.0.1, this is gsdk ")) << r.err;
}

TEST_F(ReplayChecks, WrongTypesAndRangesNameTheField) {
  const auto refused = [&](const std::function<void(json&)>& change, const std::string& expected) {
    const Outcome r = replay_changed(change);
    EXPECT_EQ(r.status, 2) << expected << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "changed.json: " + expected)) << r.err;
  };
  refused([](json& j) { j["result"]["best"]["playout"] = 1e30; },
          "/result/best/playout is `1e+30`; expected a whole number from 0 to 9999");
  refused([](json& j) { j["result"]["best"]["playout"] = -1; },
          "/result/best/playout is `-1`; expected a whole number from 0 to 9999");
  refused([](json& j) { j["result"]["best"]["playout"] = 10000; },
          "/result/best/playout is `10000`; expected a whole number from 0 to 9999");
  refused([](json& j) { j["seed"] = 1.5; }, "/seed is `1.5`; expected a whole number from 0 to 9223372036854775807");
  refused([](json& j) { j["seed"] = -5; }, "/seed is `-5`; expected a whole number from 0 to 9223372036854775807");
  refused([](json& j) { j["engine"] = "turbo"; }, "/engine is `\"turbo\"`; expected one of \"batch\" \"generic\"");
  refused([](json& j) { j["result"]["histogram"]["counts"][0] = "many"; },
          "/result/histogram/counts/0 is `\"many\"`; expected a whole number from 0 to 18446744073709551615");
  refused([](json& j) { j["game"]["params"]["rolls"] = json::array({1}); },
          "/game/params/rolls is `[1]`; expected a boolean, a 64-bit integer, a number or a string");
  refused([](json& j) { j["game"]["params"]["rolls"] = 0; },
          "/game/params: parameter 'rolls' of game 'graveler' = 0 is out of range [1, 1024]");
  refused([](json& j) { j["algorithm"] = "nmcs"; }, "replay regenerates playouts; this file holds the results of "
                                                    "algorithm \"nmcs\"");
}

} // namespace
