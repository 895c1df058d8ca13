// algorithms_cli_test.cpp - the algorithm registry as users see it: `gsdk list --algorithms` names every
// algorithm an experiment can run with the keys of its table; the user guide's reference tables are exactly
// `gsdk list --algorithms --markdown` (so the docs cannot drift from the drivers' declarations); an unknown
// algorithm in a config is refused listing the registry's names; --markdown alone is a usage error.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

const std::vector<std::string> kAlgorithms = {"playouts", "perft", "qlearning", "match", "nmcs", "nrpa", "beam"};

class AlgorithmsCli : public ::testing::Test {
protected:
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  gsdk::test::TempDir dir;
};

TEST_F(AlgorithmsCli, ListNamesEveryAlgorithmWithItsKeys) {
  const Outcome text = run({"list", "--algorithms"});
  ASSERT_EQ(text.status, 0) << describe(text);
  EXPECT_TRUE(contains(text.out, "algorithms (7):")) << text.out;
  for (const std::string& name : kAlgorithms) EXPECT_TRUE(contains(text.out, "\n  " + name + "  ")) << name;
  EXPECT_TRUE(contains(text.out, "count                  integer, required, values [1, 2^53]: playouts to run"))
      << text.out;
  EXPECT_TRUE(contains(text.out, "[run] does not apply: each agent spec names its device")) << text.out;

  const Outcome json = run({"list", "--algorithms", "--json"});
  ASSERT_EQ(json.status, 0) << describe(json);
  const auto list = nlohmann::json::parse(json.out);
  ASSERT_EQ(list.size(), kAlgorithms.size());
  for (size_t i = 0; i < kAlgorithms.size(); ++i) EXPECT_EQ(list[i]["name"], kAlgorithms[i]);
  EXPECT_EQ(list[4]["output_keys"][1]["name"], "searches") << "nmcs writes its searches' sequences";
}

// A user learns which [output] keys an algorithm refuses from the listing, before a run fails on them.
TEST_F(AlgorithmsCli, ListShowsTheOutputKeysEachAlgorithmRefuses) {
  const Outcome text = run({"list", "--algorithms"});
  ASSERT_EQ(text.status, 0) << describe(text);
  EXPECT_TRUE(contains(text.out, "    [output] plot refused (and --plot): a match draws no picture")) << text.out;
  EXPECT_TRUE(contains(text.out, "    [output] events refused: a match writes no events")) << text.out;
  EXPECT_TRUE(contains(text.out, "    [output] plot refused (and --plot): perft draws no picture")) << text.out;
  EXPECT_FALSE(contains(text.out, "[output] events refused: perft")) << "perft writes events";

  const Outcome json = run({"list", "--algorithms", "--json"});
  ASSERT_EQ(json.status, 0) << describe(json);
  for (const auto& algorithm : nlohmann::json::parse(json.out)) {
    const auto& refused = algorithm["refused_output_keys"];
    const std::string name = algorithm["name"];
    EXPECT_EQ(refused.contains("plot"), name == "match" || name == "perft") << name;
    EXPECT_EQ(refused.contains("events"), name == "match") << name;
  }
}

TEST_F(AlgorithmsCli, TheUserGuideTablesAreTheRegistrysMarkdown) {
  const Outcome markdown = run({"list", "--algorithms", "--markdown"});
  ASSERT_EQ(markdown.status, 0) << describe(markdown);
  // build/bin -> the checkout's docs/, wherever the checkout lives.
  const std::string guide =
      gsdk::test::read_file(gsdk::test::bin_dir().parent_path().parent_path() / "docs" / "user_guide.md");
  const std::string begin = "<!-- algorithms: gsdk list --algorithms --markdown -->\n",
                    end = "<!-- end of algorithms -->";
  const size_t from = guide.find(begin), to = guide.find(end);
  ASSERT_NE(from, std::string::npos) << "the user guide has no generated algorithm tables";
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(guide.substr(from + begin.size(), to - from - begin.size()), markdown.out)
      << "regenerate the section with: gsdk list --algorithms --markdown";
}

TEST_F(AlgorithmsCli, AnUnknownAlgorithmIsRefusedWithTheRegistrysNames) {
  gsdk::test::write_file(dir / "x.toml", "game = \"graveler\"\nalgorithm = \"mcts\"\n");
  const Outcome refused = run({"run", "x.toml"});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "x.toml:2:13: 'algorithm' is \"mcts\"; expected one of: playouts, perft, "
                                    "qlearning, match, nmcs, nrpa, beam"))
      << refused.err;
  const Outcome usage = run({"list", "--markdown"});
  EXPECT_EQ(usage.status, 2) << describe(usage);
  EXPECT_TRUE(contains(usage.err, "--markdown lists the algorithms")) << usage.err;
}

} // namespace
