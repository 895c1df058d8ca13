// table_list_test.cpp - core's one list of optional tables (core/include/gsdk/core/runtime/table_list.hpp) is the
// ABI's: every GSDK_TABLE_* name of gsdk_plugin.h but the game table is in it once, with its own type tag, a first
// version no larger than its struct, and a row in docs/plugin_authors.md's table of tables that names the ABI
// version that added it; PluginTables finds each table by name.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/plugin_tables.hpp"

namespace {

using gsdk::core::TableDescriptor;

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(GSDK_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

#define GSDK_FIRST_VERSION_FITS(member, Struct, name, type, first_version_size, ...)                                  \
  static_assert((first_version_size) <= sizeof(Struct) && (first_version_size) > sizeof(gsdk_header),               \
                "a table's first version lies between its header and its whole struct");
GSDK_OPTIONAL_TABLES(GSDK_FIRST_VERSION_FITS)
#undef GSDK_FIRST_VERSION_FITS

TEST(TableList, HoldsEveryOptionalTableOfTheHeaderOnceWithItsOwnTag) {
  const std::string header = read_source("sdk/include/gsdk/gsdk_plugin.h");
  ASSERT_FALSE(header.empty()) << "cannot read gsdk_plugin.h under " << GSDK_SOURCE_DIR;
  std::set<std::string> declared;
  const std::regex table_name(R"re(#define GSDK_TABLE_\w+ "([a-z0-9_.]+)")re");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), table_name); it != std::sregex_iterator(); ++it)
    declared.insert((*it)[1]);
  ASSERT_TRUE(declared.erase(GSDK_TABLE_GAME)) << "the game table's name is declared";
  std::set<std::string> listed;
  std::set<uint32_t> tags;
  for (const TableDescriptor& d : gsdk::core::optional_tables()) {
    EXPECT_TRUE(listed.insert(d.abi_name).second) << d.abi_name << " is listed twice";
    EXPECT_TRUE(tags.insert(d.type).second) << d.abi_name << " shares its type tag";
    EXPECT_NE(std::string(d.label), "") << d.abi_name;
  }
  EXPECT_EQ(listed, declared) << "core's table list and gsdk_plugin.h's GSDK_TABLE_* names differ";
}

TEST(TableList, TheDocumentationHasARowForEachTableWithItsVersion) {
  const std::string guide = read_source("docs/plugin_authors.md");
  ASSERT_FALSE(guide.empty());
  for (const TableDescriptor& d : gsdk::core::optional_tables()) {
    const std::string row = std::string("| `") + d.abi_name + "`";
    const size_t at = guide.find(row);
    ASSERT_NE(at, std::string::npos) << "docs/plugin_authors.md's table of tables has no row for " << d.abi_name;
    const std::string line = guide.substr(at, guide.find('\n', at) - at);
    if (std::string(d.since) == "1.0") continue;
    EXPECT_NE(line.find(std::string("(ABI ") + d.since + ")"), std::string::npos)
        << d.abi_name << "'s row should say it came with ABI " << d.since << ": " << line;
  }
}

TEST(TableList, BoundTablesAreFoundByName) {
  gsdk::core::PluginTables tables;
  const gsdk_move_codes codes{};
  tables.move_codes = &codes;
  EXPECT_EQ(tables.optional_table(GSDK_TABLE_MOVE_CODES), &codes);
  EXPECT_EQ(tables.optional_table(GSDK_TABLE_CPU_PERFT), nullptr);
  EXPECT_EQ(tables.optional_table("gsdk.no_such_table.v1"), nullptr);
}

} // namespace
