// qlearning_config_test.cpp - algorithm = "qlearning" experiment files: a valid file's values, sweeps,
// and the located errors for every kind of mistake in [qlearning].
#include <gtest/gtest.h>

#include "algorithms/qlearning/qlearning_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "config_error.hpp"

namespace {

const gsdk::host::QLearningConfig& qlearning_of(const gsdk::host::ExperimentConfig& c) {
  return c.settings_as<gsdk::host::QLearningConfig>();
}

using gsdk::host::parse_experiment;

const char* const kValid = R"(game = "minefield"
algorithm = "qlearning"
seed = 3

[qlearning]
environments = 4
episodes = 250
alpha = 0.25
gamma = 0.95
epsilon_start = 0.9
epsilon_end = 0.01
epsilon_decay = 0.995
tie_break = "first"
update = "atomic"
q_table = "shared"
test_episodes = 0
engine = "generic"
)";

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return gsdk::test::config_error_of(text, "ql.toml", overrides);
}

TEST(QLearningConfig, ReadsEveryKey) {
  const auto c = parse_experiment(kValid, "ql.toml", {});
  EXPECT_EQ(c.algorithm, "qlearning");
  EXPECT_EQ(qlearning_of(c).environments, std::vector<uint32_t>{4});
  const auto& s = qlearning_of(c).settings;
  EXPECT_EQ(s.episodes, 250u);
  EXPECT_FLOAT_EQ(s.alpha, 0.25f);
  EXPECT_FLOAT_EQ(s.gamma, 0.95f);
  EXPECT_DOUBLE_EQ(s.epsilon_start, 0.9);
  EXPECT_DOUBLE_EQ(s.epsilon_end, 0.01);
  EXPECT_DOUBLE_EQ(s.epsilon_decay, 0.995);
  EXPECT_TRUE(s.first_max_ties);
  EXPECT_TRUE(s.atomic_updates);
  EXPECT_TRUE(s.shared_table);
  EXPECT_EQ(s.test_episodes, 0u);
  EXPECT_EQ(qlearning_of(c).engine, gsdk::host::Engine::generic);
}

TEST(QLearningConfig, DefaultsAndSweeps) {
  const auto c = parse_experiment("game = \"minefield\"\nalgorithm = \"qlearning\"\n[qlearning]\n", "ql.toml",
                                  {"qlearning.environments=[1, 64, 4096]", "qlearning.alpha=1"});
  EXPECT_EQ(qlearning_of(c).environments, (std::vector<uint32_t>{1, 64, 4096}));
  const auto& s = qlearning_of(c).settings;
  EXPECT_EQ(s.episodes, 100u);
  EXPECT_FLOAT_EQ(s.alpha, 1.0f);
  EXPECT_FLOAT_EQ(s.gamma, 0.9f);
  EXPECT_FALSE(s.first_max_ties);
  EXPECT_FALSE(s.atomic_updates);
  EXPECT_FALSE(s.shared_table);
  EXPECT_EQ(qlearning_of(c).engine, gsdk::host::Engine::batch);
}

TEST(QLearningConfig, MistakesAreLocated) {
  const std::string head = "game = \"minefield\"\nalgorithm = \"qlearning\"\n[qlearning]\n";
  EXPECT_EQ(error_of("game = \"minefield\"\nalgorithm = \"qlearning\"\n"),
            "ql.toml:1:1: missing required table [qlearning] for algorithm \"qlearning\"");
  EXPECT_EQ(error_of(head + "episdoes = 3\n"),
            "ql.toml:4:1: unknown key 'episdoes' (did you mean 'episodes'?) in [qlearning]; valid keys: environments, "
            "episodes, alpha, gamma, "
            "epsilon_start, epsilon_end, epsilon_decay, tie_break, update, q_table, test_episodes, engine");
  EXPECT_EQ(error_of(head + "alpha = 1.5\n"), "ql.toml:4:9: 'alpha' in [qlearning] = 1.5 is out of range [0, 1]");
  EXPECT_EQ(error_of(head + "gamma = \"high\"\n"),
            "ql.toml:4:9: 'gamma' in [qlearning] must be a number, got a string");
  EXPECT_EQ(error_of(head + "tie_break = \"last\"\n"),
            "ql.toml:4:13: 'tie_break' in [qlearning] is \"last\"; expected one of: random, first");
  EXPECT_EQ(error_of(head + "update = \"racy\"\n"),
            "ql.toml:4:10: 'update' in [qlearning] is \"racy\"; expected one of: deterministic, atomic");
  EXPECT_EQ(error_of(head + "environments = 0\n"),
            "ql.toml:4:16: 'environments' in [qlearning] = 0 is out of range [1, 4194304]");
  EXPECT_EQ(error_of(head + "environments = []\n"),
            "ql.toml:4:16: 'environments' in [qlearning] needs at least one entry");
  EXPECT_EQ(error_of(head + "environments = [8, -1]\n"),
            "ql.toml:4:20: 'environments' in [qlearning] entry -1 is out of range [1, 4194304]");
  EXPECT_EQ(error_of(head + "episodes = 0\n"),
            "ql.toml:4:12: 'episodes' in [qlearning] = 0 is out of range [1, 10000000]");
  EXPECT_EQ(error_of(head + "[playouts]\ncount = 5\n"),
            "ql.toml:4:1: [playouts] applies to algorithm = \"playouts\", not \"qlearning\"");
  EXPECT_EQ(error_of("game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 5\n[qlearning]\n"),
            "ql.toml:5:1: [qlearning] applies to algorithm = \"qlearning\", not \"playouts\"");
  EXPECT_EQ(error_of(head, {"qlearning.epsilon_decay=2"}),
            "--set[1]:1:25: 'epsilon_decay' in [qlearning] = 2 is out of range [0, 1]");
}

} // namespace
