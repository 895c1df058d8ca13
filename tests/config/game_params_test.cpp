// game_params_test.cpp - a config's [params] checked against a game's declared parameters
// (host/src/game_params.hpp): defaults, every type, integers where reals are declared, and located
// errors for unknown names (listing the valid ones), wrong types and out-of-range values.
#include <gtest/gtest.h>

#include "config_error.hpp"
#include "plugin_loading/game_params.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::host::ConfigError;
using gsdk::host::resolve_params;
using gsdk::test::contains;

const gsdk_param_desc kDeclared[] = {
    {"size", GSDK_PARAM_INT, 0, 8, 0.0, nullptr, 4, 16, "board size"},
    {"komi", GSDK_PARAM_REAL, 0, 0, 6.5, nullptr, 0, 100, "points for white"},
    {"wrap", GSDK_PARAM_BOOL, 0, 1, 0.0, nullptr, 0, 1, "torus board"},
    {"variant", GSDK_PARAM_STRING, 0, 0, 0.0, "classic", 0, 0, "rule variant"},
};

gsdk_game fake_game(uint32_t param_count = 4) {
  gsdk_game g{};
  g.header = {GSDK_TYPE_GAME, sizeof(gsdk_game)};
  g.name = "fake";
  g.param_count = param_count;
  g.params = param_count ? kDeclared : nullptr;
  return g;
}

// The [params] table of a small document (kept alive by the caller's `doc`).
const toml::table& params_of(const toml::table& doc) {
  return *doc["params"].as_table();
}

toml::table doc_with(const std::string& params_body) {
  return toml::parse("[params]\n" + params_body, std::string("p.toml"));
}

std::string error_of(const gsdk_game& game, const std::string& body) {
  const toml::table doc = doc_with(body);
  try {
    resolve_params(game, params_of(doc));
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for " << body;
  return "";
}

TEST(GameParams, DefaultsInDeclarationOrder) {
  const toml::table doc = doc_with("");
  const auto r = resolve_params(fake_game(), params_of(doc));
  ASSERT_EQ(r.values.size(), 4u);
  EXPECT_STREQ(r.values[0].name, "size");
  EXPECT_EQ(r.values[0].type, GSDK_PARAM_INT);
  EXPECT_EQ(r.values[0].int_value, 8);
  EXPECT_STREQ(r.values[1].name, "komi");
  EXPECT_DOUBLE_EQ(r.values[1].real_value, 6.5);
  EXPECT_EQ(r.values[2].int_value, 1);
  EXPECT_STREQ(r.values[3].string_value, "classic");
  EXPECT_EQ(r.as_json["size"], 8);
  EXPECT_EQ(r.as_json["komi"], 6.5);
  EXPECT_EQ(r.as_json["wrap"], true);
  EXPECT_EQ(r.as_json["variant"], "classic");
}

TEST(GameParams, GivenValuesOfEveryType) {
  const toml::table doc = doc_with("size = 16\nkomi = 7\nwrap = false\nvariant = \"chinese\"\n");
  const auto r = resolve_params(fake_game(), params_of(doc));
  EXPECT_EQ(r.values[0].int_value, 16);
  EXPECT_DOUBLE_EQ(r.values[1].real_value, 7.0) << "an integer is a valid real";
  EXPECT_EQ(r.values[2].int_value, 0);
  EXPECT_STREQ(r.values[3].string_value, "chinese") << "the string outlives the TOML document";
  EXPECT_EQ(r.as_json["wrap"], false);
  EXPECT_EQ(r.as_json["variant"], "chinese");
}

TEST(GameParams, UnknownParameterListsValidOnes) {
  EXPECT_EQ(error_of(fake_game(), "size = 9\n  sise = 3\n"),
            "p.toml:3:3: game 'fake' has no parameter 'sise' (did you mean 'size'?); valid parameters: size, komi, "
            "wrap, variant");
}

TEST(GameParams, GameWithoutParameters) {
  EXPECT_EQ(error_of(fake_game(0), "rolls = 3\n"),
            "p.toml:2:1: game 'fake' has no parameter 'rolls'; valid parameters: (none)");
  const toml::table doc = doc_with("");
  const auto r = resolve_params(fake_game(0), params_of(doc));
  EXPECT_TRUE(r.values.empty());
  EXPECT_TRUE(r.as_json.is_object()) << "an empty object, not null, in the results file";
}

TEST(GameParams, WrongTypes) {
  EXPECT_EQ(error_of(fake_game(), "size = \"big\"\n"),
            "p.toml:2:8: parameter 'size' of game 'fake' must be an integer");
  EXPECT_EQ(error_of(fake_game(), "size = 8.0\n"), "p.toml:2:8: parameter 'size' of game 'fake' must be an integer");
  EXPECT_EQ(error_of(fake_game(), "komi = \"x\"\n"), "p.toml:2:8: parameter 'komi' of game 'fake' must be a number");
  EXPECT_EQ(error_of(fake_game(), "wrap = 1\n"), "p.toml:2:8: parameter 'wrap' of game 'fake' must be a boolean");
  EXPECT_EQ(error_of(fake_game(), "variant = 3\n"), "p.toml:2:11: parameter 'variant' of game 'fake' must be a string");
}

TEST(GameParams, OutOfRange) {
  EXPECT_EQ(error_of(fake_game(), "size = 17\n"),
            "p.toml:2:8: parameter 'size' of game 'fake' = 17 is out of range [4, 16]");
  EXPECT_EQ(error_of(fake_game(), "\nsize = 3\n"),
            "p.toml:3:8: parameter 'size' of game 'fake' = 3 is out of range [4, 16]");
  const std::string komi = error_of(fake_game(), "komi = -0.5\n");
  EXPECT_TRUE(contains(komi, "p.toml:2:8: parameter 'komi' of game 'fake' = -0.5 is out of range [0, 100]")) << komi;
  // The bounds themselves are allowed.
  const toml::table doc = doc_with("size = 4\nkomi = 100.0\n");
  EXPECT_EQ(resolve_params(fake_game(), params_of(doc)).values[0].int_value, 4);
}

} // namespace
