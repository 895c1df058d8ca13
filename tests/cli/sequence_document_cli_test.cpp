// sequence_document_cli_test.cpp - what the host writes and refuses for games without documents of their own
// (gsdk.sequence_documents.v1): `gsdk replay --document` saves a graveler playout as a gsdk-moves document
// whose moves replay to the stored best score, and refuses a playout from a stored start state; the nested
// searches refuse a two-player game, located at the config's algorithm key.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class SequenceDocumentCli : public ::testing::Test {
protected:
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  void write(const std::string& name, const std::string& text) { gsdk::test::write_file(dir / name, text); }
  gsdk::test::TempDir dir;
};

TEST_F(SequenceDocumentCli, ReplaySavesAGsdkMovesDocumentOfTheBestPlayout) {
  write("graveler.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\nseed = 1\n[params]\nrolls = 20\n"
                         "[playouts]\ncount = 100\n[run]\ndevice = \"cpu\"\n");
  ASSERT_EQ(run({"run", "graveler.toml", "-q", "--out", "g.json"}).status, 0);
  const Outcome replayed = run({"replay", "g.json", "--document", "best.json"});
  ASSERT_EQ(replayed.status, 0) << describe(replayed);
  EXPECT_TRUE(contains(replayed.out, "playout of 20 moves saved in best.json")) << replayed.out;
  const auto results = nlohmann::json::parse(gsdk::test::read_file(dir / "g.json"));
  const auto document = nlohmann::json::parse(gsdk::test::read_file(dir / "best.json"));
  EXPECT_EQ(document["format"], "gsdk-moves");
  EXPECT_EQ(document["game"], "graveler");
  EXPECT_EQ(document["score"], results["result"]["best"]["score"]);
  EXPECT_EQ(document["moves"].size(), 20u);
  EXPECT_EQ(document["move_names"].size(), 20u);
}

TEST_F(SequenceDocumentCli, ReplayRefusesADocumentOfAPlayoutFromAStoredState) {
  write("graveler.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\nseed = 1\n[params]\nrolls = 20\n"
                         "[playouts]\ncount = 100\nstart_state = \"rolls=3 ones=1\"\n[run]\ndevice = \"cpu\"\n");
  ASSERT_EQ(run({"run", "graveler.toml", "-q", "--out", "g.json"}).status, 0);
  const Outcome refused = run({"replay", "g.json", "--document", "x.json"});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "--document: the playout starts from a stored state")) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "x.json"));
}

TEST_F(SequenceDocumentCli, NestedSearchesRefuseATwoPlayerGameAtTheAlgorithmKey) {
  write("nim.toml", "game = \"test_nim\"\nalgorithm = \"nmcs\"\n[nmcs]\nlevel = 1\n");
  const Outcome refused = run({"run", "nim.toml", "-q", "--plugin-dir", gsdk::test::test_plugin_dir("valid").string()});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "nim.toml:2:13: NMCS searches one-player games; 'test_nim' has 2 players"))
      << refused.err;
}

} // namespace
