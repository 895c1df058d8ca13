// gnuplot_test.cpp - gnuplot scripts and the command that runs them hold any character a user can type (a config's
// name in the title, TMPDIR, the picture's path): quotes, double quotes, spaces and backslashes arrive unchanged. A
// gnuplot that is missing or fails is said in words (not "exit status 32512").
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
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

// The environment variable `name` set to `value` for the object's life.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

// With PATH an empty folder the shell finds no gnuplot (its status 127, 32512 from std::system): the message says
// gnuplot is missing, how to install it and how to run without the picture.
TEST(GnuplotFailure, MissingGnuplotIsSaidSo) {
  const TempDir dir;
  const fs::path empty = dir / "empty-path";
  fs::create_directories(empty);
  std::string message;
  {
    const ScopedEnv path("PATH", empty.string());
    try {
      gsdk::host::plot_histogram((dir / "h.png").string(), "title", 0, {1, 2, 3}, {});
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
  }
  EXPECT_NE(message.find("gnuplot is not installed (or not on PATH): install it (apt install gnuplot-nox)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("--plot ''"), std::string::npos) << message;
  EXPECT_EQ(message.find("32512"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(dir / "h.png"));
}

// A gnuplot that fails (here a stand-in on PATH) is reported with its exit code, not the wait status (768), and what
// it wrote; one killed by a signal is named as such.
TEST(GnuplotFailure, AFailingGnuplotGivesItsExitCodeAndMessage) {
  const TempDir dir;
  const fs::path bin = dir / "bin";
  fs::create_directories(bin);
  const auto stand_in = [&](const std::string& body) {
    gsdk::test::write_file(bin / "gnuplot", "#!/bin/sh\n" + body + "\n");
    fs::permissions(bin / "gnuplot", fs::perms::owner_all);
    std::string message;
    const ScopedEnv path("PATH", bin.string() + ":/usr/bin:/bin");
    try {
      gsdk::host::plot_histogram((dir / "h.png").string(), "title", 0, {1, 2, 3}, {});
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    return message;
  };
  EXPECT_EQ(stand_in("echo 'line 1: oops' >&2; exit 3"), "gnuplot failed (exit status 3): line 1: oops");
  const std::string killed = stand_in("kill -TERM $$");
  EXPECT_EQ(killed.rfind("gnuplot was killed by signal 15 (SIGTERM)", 0), 0u) << killed;
  EXPECT_EQ(stand_in("exit 0"), "gnuplot drew no picture");
}

TEST(GnuplotFailure, ExitCodesAndSignalsAreDecoded) {
  using gsdk::host::gnuplot_failure;
  EXPECT_EQ(gnuplot_failure(0, 0, ""), "");
  EXPECT_EQ(gnuplot_failure(1 << 8, 0, "\"plot.gp\" line 3: undefined variable: x\n"),
            "gnuplot failed (exit status 1): \"plot.gp\" line 3: undefined variable: x");
  EXPECT_EQ(gnuplot_failure(SIGKILL, 0, ""), "gnuplot was killed by signal 9 (SIGKILL)");
  EXPECT_EQ(gnuplot_failure((128 + SIGSEGV) << 8, 0, ""), "gnuplot was killed by signal 11 (SIGSEGV)")
      << "the shell's status for a child killed by a signal";
  EXPECT_EQ(gnuplot_failure(126 << 8, 0, "sh: 1: gnuplot: Permission denied\n"),
            "gnuplot was found but cannot be run: sh: 1: gnuplot: Permission denied");
  EXPECT_EQ(gnuplot_failure(-1, EAGAIN, ""), "cannot start a shell to run gnuplot: Resource temporarily unavailable");
  EXPECT_NE(gnuplot_failure(127 << 8, 0, "sh: 1: gnuplot: not found\n").find("gnuplot is not installed"),
            std::string::npos);
}

} // namespace
