// toml_reader_test.cpp - the screen in front of toml++ (host/src/config/toml_reader.hpp): non-ASCII text
// outside strings and comments, and after a multi-line string's backslash, is refused at its line and
// column; everywhere TOML allows it, it reads as toml++ reads it. Without the screen these inputs reach
// __builtin_unreachable inside toml++ 3.3.0 (the sanitizer stage of the test command runs this file).
#include <gtest/gtest.h>

#include "algorithms/run_experiment.hpp"
#include "config/toml_reader.hpp"
#include "config_error.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::host::parse_toml;
using gsdk::test::contains;

struct Refusal {
  std::string description;
  toml::source_position where;
};

Refusal refusal_of(const std::string& text) {
  try {
    parse_toml(text, "t.toml");
  } catch (const toml::parse_error& e) {
    return {std::string(e.description()), e.source().begin};
  }
  ADD_FAILURE() << "accepted: " << text;
  return {};
}

std::string value_of(const std::string& text, const char* key = "a") {
  const toml::table doc = parse_toml(text, "t.toml");
  return std::string(doc[key].value_or(std::string("<not a string>")));
}

TEST(TomlReader, NonAsciiOutsideStringsIsRefusedWhereItIs) {
  const Refusal after_value = refusal_of("a = 1\nb = 2 \xC2\xA7\n"); // U+00A7, the range toml++ mishandles
  EXPECT_EQ(after_value.where.line, 2u);
  EXPECT_EQ(after_value.where.column, 7u);
  EXPECT_TRUE(contains(after_value.description, "'\xC2\xA7' (U+00A7) may appear only inside a quoted string"))
      << after_value.description;

  const Refusal in_key = refusal_of("dev\xD2\x90son = 1\n"); // the fuzzer's input: U+0490 in a bare key
  EXPECT_EQ(in_key.where.line, 1u);
  EXPECT_EQ(in_key.where.column, 4u);
  EXPECT_TRUE(contains(in_key.description, "(U+0490)")) << in_key.description;

  EXPECT_EQ(refusal_of("a = [1, \xE3\x80\x81]\n").where.column, 9u);   // U+3001, the second bad range
  EXPECT_EQ(refusal_of("a = {b = 1 \xEF\xB9\xB0}").where.column, 12u); // U+FE70, the third
  // Columns count characters, as toml++'s do: the two-byte "é" in the string is one column.
  EXPECT_EQ(refusal_of("a = \"\xC3\xA9\" \xC3\xA9").where.column, 9u);
}

TEST(TomlReader, BytesThatAreNotUtf8AreNamed) {
  const Refusal stray = refusal_of("a = 1 \xFF\n");
  EXPECT_EQ(stray.where.column, 7u);
  EXPECT_TRUE(contains(stray.description, "byte 0xFF, which is not UTF-8")) << stray.description;
}

TEST(TomlReader, NonAsciiReadsAsTomlSaysInStringsCommentsAndQuotedKeys) {
  EXPECT_EQ(value_of("a = \"\xC2\xA7 \xD2\x90\"  # \xE3\x80\x81\n"), "\xC2\xA7 \xD2\x90");
  EXPECT_EQ(value_of("a = '\xC2\xA7\\'\n"), "\xC2\xA7\\");
  EXPECT_EQ(value_of("# \xC2\xA7\na = \"x\"\n"), "x");
  EXPECT_EQ(value_of("a = '''\n\xC2\xA7\n'''\n"), "\xC2\xA7\n");
  EXPECT_EQ(value_of("a = \"\"\"\n\xC2\xA7 \\\" \xC2\xA7\"\"\"\n"), "\xC2\xA7 \" \xC2\xA7");
  EXPECT_EQ(value_of("\"\xC2\xA7\" = \"x\"\n", "\xC2\xA7"), "x");
  EXPECT_EQ(value_of("\xEF\xBB\xBF"
                     "a = \"bom\"\n"),
            "bom"); // a byte order mark starts many files
}

TEST(TomlReader, AMultiLineStringsClosingQuotesDoNotOpenAnother) {
  // Four and five quotes close the string with one or two of them inside it; the screen must agree, or
  // it would take the last quote for an opening one and pass the § on line 2.
  EXPECT_EQ(value_of("a = '''x''''\n"), "x'");
  EXPECT_EQ(value_of("a = \"\"\"x\"\"\"\"\"\n"), "x\"\"");
  EXPECT_EQ(refusal_of("a = '''x''''\nb = \xC2\xA7\n").where.line, 2u);
  EXPECT_EQ(refusal_of("a = \"\"\"x\"\"\"\"\"\nb = \xC2\xA7\n").where.line, 2u);
}

TEST(TomlReader, ALineEndingBackslashBeforeNonAsciiIsRefusedWithAWayAround) {
  const Refusal next_line = refusal_of("s = \"\"\"\\\n\xC2\xA7\"\"\"\n"); // toml++ issue #190's example
  EXPECT_EQ(next_line.where.line, 2u);
  EXPECT_EQ(next_line.where.column, 1u);
  EXPECT_TRUE(contains(next_line.description, "right after a line-ending backslash")) << next_line.description;
  EXPECT_TRUE(contains(next_line.description, "\\u escape")) << next_line.description;

  const Refusal indented = refusal_of("s = \"\"\"\\\n\n   \xC2\xA7\"\"\"\n");
  EXPECT_EQ(indented.where.line, 3u);
  EXPECT_EQ(indented.where.column, 4u);
  EXPECT_EQ(refusal_of("s = \"\"\"\\  \xC2\xA7\n\"\"\"\n").where.column, 11u);

  const Refusal escape = refusal_of("s = \"\"\"\\\xC2\xA7\"\"\"\n");
  EXPECT_TRUE(contains(escape.description, "unknown escape sequence")) << escape.description;

  // The way around it reads: the character as a \u escape, or ASCII first on the continued line.
  EXPECT_EQ(value_of("a = \"\"\"\\\n\\u00A7\"\"\"\n"), "\xC2\xA7");
  EXPECT_EQ(value_of("a = \"\"\"\\\n  x\xC2\xA7\"\"\"\n"), "x\xC2\xA7");
}

TEST(TomlReader, AQuoteInsideAnUnquotedValueIsNoShelterForNonAscii) {
  // CI's second fuzz finding (`--set x=1"§6`): toml++ reads an unquoted value ahead to the next space, ',',
  // bracket or '#' before it parses it, quotes and '=' included, and asks of the § whether it is whitespace.
  const Refusal number = refusal_of("v = 1\"\xC2\xA7"
                                    "6");
  EXPECT_EQ(number.where.line, 1u);
  EXPECT_EQ(number.where.column, 7u);
  EXPECT_TRUE(contains(number.description, "'\xC2\xA7' (U+00A7) is inside an unquoted value")) << number.description;
  EXPECT_EQ(refusal_of("v = 0.=\"=-\xD1\x82\"").where.column, 11u); // the third finding: '=' and a quote in the run
  EXPECT_EQ(refusal_of("v = 1.0'\xC2\xA7'").where.column, 9u);
  EXPECT_EQ(refusal_of("v = 1979-05-27\"\xC2\xA7\"").where.column, 16u);
  EXPECT_EQ(refusal_of("v = [1, [2\"\xC2\xA7\"]]").where.column, 12u);
  EXPECT_EQ(refusal_of("v = {a = 1\"\xC2\xA7\"}").where.column, 12u);
  EXPECT_EQ(refusal_of("v = [\n 1,\n 2'\xC2\xA7']").where.line, 3u); // arrays go on over line breaks
  // A quote right after a key opens no string either.
  const Refusal key = refusal_of("a'\xC2\xA7' = 1");
  EXPECT_EQ(key.where.column, 3u);
  EXPECT_TRUE(contains(key.description, "follows a quote that opens no string")) << key.description;
  // Quotes in their places keep their non-ASCII text: after '=', ',', '.', '[', '{' and whitespace.
  EXPECT_EQ(value_of("a=\"\xC2\xA7\""), "\xC2\xA7");
  const toml::table doc =
      parse_toml("t.\"\xC2\xA7\"=\"x\"\n[\"\xC2\xA7\"]\na=[\"x\",\"\xC2\xA7\"]\nc={d=1,\"\xC2\xA7\"=2}\n", "t.toml");
  EXPECT_EQ(doc["t"]["\xC2\xA7"].value_or(std::string()), "x");
  EXPECT_EQ(doc["\xC2\xA7"]["a"][1].value_or(std::string()), "\xC2\xA7");
  EXPECT_EQ(doc["\xC2\xA7"]["c"]["\xC2\xA7"].value_or(0), 2);
}

TEST(TomlReader, AnExperimentFileWithTheFuzzersInputSaysWhereItsMistakeIs) {
  const std::string text = "game = \"snake\"\nalgoriarts = 100\nsearches_in_parallel = 2\n\n[run]\ndev\xD2\x90son\"\n";
  try {
    gsdk::host::parse_experiment(text, "fuzz.toml", {});
    FAIL() << "accepted";
  } catch (const gsdk::host::ConfigError& e) {
    EXPECT_TRUE(contains(e.what(), "fuzz.toml:6:4: TOML syntax error: '\xD2\x90' (U+0490)")) << e.what();
  }
}

TEST(TomlReader, AnOverrideOfNonAsciiWordsIsTakenAsAString) {
  // --set name=тест: the word is not TOML, so it is read again as a quoted string (overrides.cpp).
  const auto config =
      gsdk::host::parse_experiment("game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 1\n", "exp.toml",
                                   {"name=\xD1\x82\xD0\xB5\xD1\x81\xD1\x82"});
  EXPECT_EQ(config.name, "\xD1\x82\xD0\xB5\xD1\x81\xD1\x82");
}

} // namespace
