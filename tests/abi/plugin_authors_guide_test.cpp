// plugin_authors_guide_test.cpp - what docs/plugin_authors.md says that could drift from the tree: the ABI version
// this gsdk speaks is the one gsdk_plugin.h defines, and each template file it points at as a model (a "two-player
// template's `evaluation.hpp`") exists in sdk/templates, which cmake/Install.cmake installs whole, so that a reader
// of the installed guide (share/doc/gsdk) finds it in share/gsdk/templates.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gsdk/gsdk_plugin.h"

namespace {

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(GSDK_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PluginAuthorsGuide, SaysTheAbiVersionOfTheHeaders) {
  const std::string guide = read_source("docs/plugin_authors.md");
  ASSERT_FALSE(guide.empty()) << "cannot read docs/plugin_authors.md under " << GSDK_SOURCE_DIR;
  const std::string headers = std::to_string(GSDK_ABI_MAJOR) + "." + std::to_string(GSDK_ABI_MINOR);
  const std::regex said(R"(this gsdk speaks ABI (\d+\.\d+))");
  int statements = 0;
  for (auto it = std::sregex_iterator(guide.begin(), guide.end(), said); it != std::sregex_iterator(); ++it) {
    ++statements;
    EXPECT_EQ((*it)[1].str(), headers) << "docs/plugin_authors.md says \"" << (*it)[0]
                                       << "\"; gsdk_plugin.h defines ABI " << headers;
  }
  EXPECT_GE(statements, 1) << "docs/plugin_authors.md (\"Versions\") should say \"this gsdk speaks ABI " << headers
                           << "\"";
}

TEST(PluginAuthorsGuide, TheTemplateFilesItPointsAtAreInstalled) {
  const std::string guide = read_source("docs/plugin_authors.md");
  ASSERT_FALSE(guide.empty());
  // The templates are installed whole: every file of sdk/templates/<name>/ is in share/gsdk/templates/<name>/.
  const std::string install = read_source("cmake/Install.cmake");
  ASSERT_NE(install.find("install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/templates/ DESTINATION share/gsdk/templates"),
            std::string::npos)
      << "cmake/Install.cmake no longer installs sdk/templates/ whole: check what the guide points at another way";
  // "<template> template's `<file>`", for each template folder.
  int pointers = 0;
  for (const auto& folder :
       std::filesystem::directory_iterator(std::filesystem::path(GSDK_SOURCE_DIR) / "sdk/templates")) {
    if (!folder.is_directory()) continue;
    const std::regex pointed(folder.path().filename().string() + R"( template's `([^`]+)`)");
    for (auto it = std::sregex_iterator(guide.begin(), guide.end(), pointed); it != std::sregex_iterator(); ++it) {
      ++pointers;
      EXPECT_TRUE(std::filesystem::is_regular_file(folder.path() / (*it)[1].str()))
          << "docs/plugin_authors.md points at \"" << (*it)[0] << "\", but " << folder.path() / (*it)[1].str()
          << " does not exist";
    }
  }
  EXPECT_GE(pointers, 1) << "docs/plugin_authors.md points at no template file";
  // The evaluation's model above all: the table that alpha-beta needs, which a user of the installed gsdk writes
  // from it.
  const size_t begins = guide.find("- **Evaluation**");
  ASSERT_NE(begins, std::string::npos) << "docs/plugin_authors.md has no Evaluation item";
  const std::string item = guide.substr(begins, guide.find("\n- **", begins + 1) - begins);
  EXPECT_TRUE(std::regex_search(item, std::regex(R"([a-z-]+ template's `[^`]+`)")))
      << "the Evaluation item should point at a template's file, which the installed gsdk has: " << item;
}

} // namespace
