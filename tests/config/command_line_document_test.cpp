// command_line_document_test.cpp - values typed on a command line become a document the config's checks read:
// any text survives as one string, each value is located at its option (so a range error names it), and text that is
// no value is refused naming the option; a perft experiment made this way is checked by the perft driver.
#include <gtest/gtest.h>

#include <string>

#include "algorithms/run_experiment.hpp"
#include "config/command_line_document.hpp"
#include "config/config_error.hpp"
#include "config/toml_reader.hpp"

namespace gsdk::host {
namespace {

TEST(CommandLineDocument, AnyTextSurvivesAsOneString) {
  for (const std::string text : {"start", "", "a\"b", "back\\slash", "two\nlines", "'''", "x''' y \"\"\"", "-XO----- X",
                                 "stones=5 to_move=0", "tab\there", "é ü"}) {
    const toml::table doc = parse_toml("v = " + toml_string(text), "test");
    ASSERT_TRUE(doc["v"].is_string()) << text;
    EXPECT_EQ(doc["v"].value<std::string>(), text);
  }
}

TEST(CommandLineDocument, ValuesAreLocatedAtTheirOption) {
  toml::table table;
  set_option_value(table, "games", "12", command_line_origin("--games", "12"));
  ASSERT_TRUE(table["games"].is_integer());
  EXPECT_EQ(table["games"].value<int64_t>(), 12);
  EXPECT_EQ(located(table["games"].node()->source(), "too many"), "--games 12 (command line): too many");

  toml::array agents;
  push_option_value(agents, toml_string("uct:playouts=10"), command_line_origin("--agent0", "uct:playouts=10"));
  push_option_value(agents, toml_string("random"), command_line_origin("--agent1", "random"));
  ASSERT_EQ(agents.size(), 2u);
  EXPECT_EQ(located(agents[1].source(), "bad"), "--agent1 random (command line): bad");
}

TEST(CommandLineDocument, TextThatIsNoValueIsRefusedNamingItsOption) {
  toml::table table;
  try {
    set_option_value(table, "depth", "12x", command_line_origin("DEPTH", "12x"));
    FAIL() << "12x is no TOML value";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("DEPTH 12x (command line): not a value", 0), 0u) << e.what();
  }
}

// The perft driver's reader checks what `gsdk perft` typed, once: a depth out of [perft]'s range names DEPTH.
TEST(CommandLineDocument, AnExperimentFromOptionsIsCheckedByItsDriver) {
  const auto experiment = [](const std::string& depth) {
    toml::table position;
    set_option_value(position, "position", toml_string("start"), command_line_origin("POSITION", "start"));
    set_option_value(position, "depth", depth, command_line_origin("DEPTH", depth));
    toml::table doc{{"game", "test_nim"},
                    {"algorithm", "perft"},
                    {"perft", toml::table{{"positions", toml::array{std::move(position)}}}}};
    return command_experiment(std::move(doc), "gsdk perft (command line)");
  };
  EXPECT_EQ(experiment("7").algorithm, "perft");
  try {
    experiment("65");
    FAIL() << "depth 65 is out of range";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "DEPTH 65 (command line): 'depth' in [[perft.positions]] entry 1 = 65 is out of range [0, 64]");
  }
}

} // namespace
} // namespace gsdk::host
