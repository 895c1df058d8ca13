// gnuplot_test.cpp - gnuplot scripts and the command that runs them hold any character a user can type (a config's
// name in the title, TMPDIR, the picture's path): quotes, double quotes, spaces and backslashes arrive unchanged.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "report/gnuplot.hpp"
#include "report/histogram_plot.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::host::gnuplot_quoted;
using gsdk::host::shell_quoted;
using gsdk::test::read_file;
using gsdk::test::TempDir;

const std::string kAwkward = "it's a \"plot\" in C:\\dir";

bool gnuplot_installed() {
  return std::system("command -v gnuplot >/dev/null 2>&1") == 0;
}

TEST(GnuplotQuoting, DoublesSingleQuotesAndKeepsBackslashes) {
  EXPECT_EQ(gnuplot_quoted(kAwkward), "'it''s a \"plot\" in C:\\dir'");
  EXPECT_EQ(gnuplot_quoted("trailing\\"), "'trailing\\'");
  EXPECT_EQ(gnuplot_quoted("two\nlines"), "'two lines'");
}

TEST(GnuplotQuoting, ShellWordsSurviveTheShell) {
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  // The shell gives back the word as it was: printf of the quoted word writes it unchanged.
  const TempDir dir;
  const fs::path out = dir / "echoed.txt";
  const std::string command = "printf %s " + shell_quoted(kAwkward + " $HOME `x`") + " > " + shell_quoted(out.string());
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(read_file(out), kAwkward + " $HOME `x`");
}

TEST(GnuplotQuoting, ScriptQuotesTheOutputAndTitle) {
  const TempDir dir;
  const fs::path folder = dir / kAwkward;
  fs::create_directories(folder);
  { gsdk::host::open_plot_script(folder, kAwkward, "pngcairo size 100,100"); }
  const std::string script = read_file(folder / "plot.gp");
  EXPECT_NE(script.find("set output " + gnuplot_quoted((folder / "plot.png").string()) + "\n"), std::string::npos)
      << script;
  EXPECT_NE(script.find("set title 'it''s a \"plot\" in C:\\dir' noenhanced\n"), std::string::npos) << script;
}

// The whole path: the plot folder under a TMPDIR with every awkward character, a title and a picture path with them.
TEST(GnuplotQuoting, HistogramDrawsWithAwkwardPathsAndTitle) {
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  const TempDir dir;
  const fs::path tmp = dir / ("tmp " + kAwkward);
  fs::create_directories(tmp);
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  setenv("TMPDIR", tmp.c_str(), 1);
  const fs::path png = dir / (kAwkward + ".png");
  EXPECT_NO_THROW(gsdk::host::plot_histogram(png.string(), kAwkward + " _^@&~{}", 0, {1, 2, 3}, {}));
  if (old_tmpdir)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
  const std::string picture = read_file(png);
  ASSERT_GT(picture.size(), 8u);
  EXPECT_EQ(picture.substr(1, 3), "PNG");
  EXPECT_TRUE(fs::is_empty(tmp)) << "the plot folder is removed";
}

} // namespace
