// catalog_refusals_test.cpp - the host's plugin loading and ABI negotiation (PluginCatalog).
//
// Every way a file can fail to be a usable plugin is refused with a message naming the file and
// saying what was expected and what was found: not a shared object, not loadable, no entry point,
// another ABI major (refused by the plugin, or claimed in its answer), no game table, a wrong table
// tag or size, no name, a duplicate name. Valid plugins beside broken ones still load. The broken
// plugins are built by tests/abi/broken_plugins into bin/test_plugins/broken/. Before dlopen: every
// prefix of a real plugin is refused as truncated, an ELF of another class or machine is refused, and
// files and folders other users could write are refused unless the catalog is told to skip that rule.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#include <gtest/gtest.h>

#include "plugin_loading/plugin_catalog.hpp"
#include "plugin_loading/plugin_file_checks.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::host::PluginCatalog;
using gsdk::test::contains;
namespace fs = std::filesystem;

fs::path broken(const std::string& file) {
  return gsdk::test::test_plugin_dir("broken") / file;
}
fs::path valid_nim() {
  return gsdk::test::test_plugin_dir("valid") / "test_nim.so";
}

// Loads `file` alone and returns the one problem recorded for it (the test fails if it loaded).
std::string refusal(const fs::path& file) {
  EXPECT_TRUE(fs::exists(file)) << file << " was not built";
  PluginCatalog catalog;
  EXPECT_EQ(catalog.load_file(file), nullptr) << file << " loaded but must be refused";
  EXPECT_TRUE(catalog.plugins().empty());
  if (catalog.problems().size() != 1) {
    ADD_FAILURE() << "expected exactly one problem for " << file << ", got " << catalog.problems().size();
    return "";
  }
  EXPECT_EQ(catalog.problems()[0].path, file.string()) << "the problem must name the file";
  return catalog.problems()[0].message;
}

TEST(PluginCatalog, TextFileIsNotASharedObject) {
  const std::string m = refusal(broken("bogus.so"));
  EXPECT_TRUE(contains(m, "not a shared object")) << m;
  EXPECT_TRUE(contains(m, "expected an ELF shared library")) << m;
  EXPECT_TRUE(contains(m, "found a file starting with \"this\"")) << m;
}

TEST(PluginCatalog, TooShortFileIsNotASharedObject) {
  const std::string m = refusal(broken("tiny.so"));
  EXPECT_TRUE(contains(m, "expected an ELF shared library")) << m;
  EXPECT_TRUE(contains(m, "a file of 2 bytes")) << m;
}

TEST(PluginCatalog, BinaryJunkIsShownEscaped) {
  gsdk::test::TempDir dir;
  gsdk::test::write_file(dir / "junk.so", std::string("\x01\x02zz rest", 9));
  const std::string m = refusal(dir / "junk.so");
  EXPECT_TRUE(contains(m, "found a file starting with \"\\x01\\x02zz\"")) << m;
}

TEST(PluginCatalog, ElfThatCannotBeLoadedIsRefused) {
  // An ELF relocatable object: right magic, but nothing the dynamic loader accepts.
  gsdk::test::TempDir dir;
  std::string elf(64, '\0');
  elf[0] = 0x7f, elf[1] = 'E', elf[2] = 'L', elf[3] = 'F', elf[4] = 2, elf[5] = 1, elf[6] = 1, elf[16] = 1;
  gsdk::test::write_file(dir / "object.so", elf);
  const std::string m = refusal(dir / "object.so");
  EXPECT_TRUE(contains(m, "cannot be loaded as a shared library")) << m;
}

TEST(PluginCatalog, MissingEntryPoint) {
  const std::string m = refusal(broken("no_entry.so"));
  EXPECT_TRUE(contains(m, "lacks the entry point 'gsdk_negotiate'")) << m;
  EXPECT_TRUE(contains(m, "expected a gsdk plugin exporting it")) << m;
}

TEST(PluginCatalog, PluginRefusesTheHostsAbiRange) {
  const std::string m = refusal(broken("abi99.so"));
  EXPECT_TRUE(contains(m, "refused the ABI negotiation")) << m;
  EXPECT_TRUE(contains(m, "status " + std::to_string(GSDK_ERR_VERSION))) << m;
  // The plugin's own message names both sides: its version and the range the host offered.
  EXPECT_TRUE(contains(m, "ABI 99.0")) << m;
  EXPECT_TRUE(contains(m, "accepts majors " + std::to_string(GSDK_ABI_MAJOR) + ".." + std::to_string(GSDK_ABI_MAJOR)))
      << m;
}

TEST(PluginCatalog, AnswerClaimingAnotherMajorIsRefused) {
  const std::string m = refusal(broken("claims_abi2.so"));
  EXPECT_TRUE(contains(m, "answered with ABI 2.7")) << m;
  EXPECT_TRUE(contains(m, "this host speaks ABI major " + std::to_string(GSDK_ABI_MAJOR))) << m;
}

TEST(PluginCatalog, MissingGameTable) {
  const fs::path file = broken("no_game.so");
  const std::string m = refusal(file);
  EXPECT_TRUE(contains(m, file.string())) << m;
  EXPECT_TRUE(contains(m, "plugin 'broken_no_game' has no 'gsdk.game.v1' table")) << m;
}

TEST(PluginCatalog, GameTableWithWrongTypeTag) {
  const std::string m = refusal(broken("wrong_tag.so"));
  EXPECT_TRUE(contains(m, "table 'gsdk.game.v1' has type tag 0x47530007, expected 0x47530004")) << m;
}

TEST(PluginCatalog, GameTableTooSmall) {
  const std::string m = refusal(broken("short_table.so"));
  EXPECT_TRUE(contains(m, "table 'gsdk.game.v1' is 16 bytes, expected at least " + std::to_string(sizeof(gsdk_game))))
      << m;
}

TEST(PluginCatalog, EmptyPluginName) {
  const std::string m = refusal(broken("no_name.so"));
  EXPECT_TRUE(contains(m, "negotiation returned no plugin name")) << m;
}

TEST(PluginCatalog, ValidTestPluginLoads) {
  PluginCatalog catalog;
  const gsdk::host::LoadedPlugin* p = catalog.load_file(valid_nim());
  ASSERT_NE(p, nullptr) << (catalog.problems().empty() ? "" : catalog.problems()[0].message);
  EXPECT_TRUE(catalog.problems().empty());
  EXPECT_EQ(p->tables.name(), "test_nim");
  EXPECT_EQ(p->tables.version(), "0.1.0");
  EXPECT_EQ(p->tables.info.abi_major, GSDK_ABI_MAJOR);
  EXPECT_EQ(p->tables.path, valid_nim().string());
  ASSERT_NE(p->tables.game, nullptr);
  EXPECT_STREQ(p->tables.game->name, "test_nim");
  // Optional tables it does not implement are absent, not half-filled.
  EXPECT_EQ(p->tables.cpu_playouts, nullptr);
  EXPECT_EQ(p->tables.cuda_playouts, nullptr);
  EXPECT_EQ(p->tables.replay, nullptr);
  EXPECT_EQ(catalog.find("test_nim"), p);
  EXPECT_EQ(catalog.find("graveler"), nullptr);
}

TEST(PluginCatalog, DuplicateNameKeepsTheFirst) {
  PluginCatalog catalog;
  ASSERT_NE(catalog.load_file(valid_nim()), nullptr);
  const fs::path copy = broken("test_nim_copy.so");
  EXPECT_EQ(catalog.load_file(copy), nullptr);
  ASSERT_EQ(catalog.problems().size(), 1u);
  EXPECT_EQ(catalog.problems()[0].path, copy.string());
  const std::string& m = catalog.problems()[0].message;
  EXPECT_TRUE(contains(m, "plugin name 'test_nim' is already provided by " + valid_nim().string())) << m;
  ASSERT_EQ(catalog.plugins().size(), 1u);
  EXPECT_EQ(catalog.find("test_nim")->tables.path, valid_nim().string());
}

TEST(PluginCatalog, BrokenFolderRefusesEachBrokenFileAndLoadsTheRest) {
  PluginCatalog catalog;
  catalog.load_directories({gsdk::test::test_plugin_dir("broken")});
  // Everything in broken/ but the copy of test_nim is refused, each once, in file-name order.
  const std::vector<std::string> expected = {"abi99.so",       "bogus.so",   "claims_abi2.so",
                                             "no_entry.so",    "no_game.so", "no_name.so",
                                             "short_table.so", "tiny.so",    "wrong_tag.so"};
  ASSERT_EQ(catalog.problems().size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(fs::path(catalog.problems()[i].path).filename().string(), expected[i]);
  ASSERT_EQ(catalog.plugins().size(), 1u);
  EXPECT_EQ(catalog.plugins()[0]->tables.name(), "test_nim");
}

TEST(PluginCatalog, RealPluginsLoadBesideBrokenOnes) {
  PluginCatalog catalog;
  catalog.load_directories({gsdk::test::plugin_dir(), gsdk::test::test_plugin_dir("valid"),
                            gsdk::test::test_plugin_dir("broken"), "/nonexistent/gsdk/folder"});
  ASSERT_NE(catalog.find("graveler"), nullptr) << catalog.names();
  ASSERT_NE(catalog.find("test_nim"), nullptr) << catalog.names();
  EXPECT_EQ(catalog.find("test_nim")->tables.path, valid_nim().string()) << "the first folder's copy wins";
  EXPECT_TRUE(contains(catalog.names(), "graveler")) << catalog.names();
  EXPECT_TRUE(contains(catalog.names(), ", ")) << catalog.names();
  // The nine broken files plus the duplicate copy; a missing folder is no problem.
  EXPECT_EQ(catalog.problems().size(), 10u);
}

TEST(PluginCatalog, ExceptionsInsideARealPluginComeBackAsMessages) {
  // graveler.so throws gsdk::PluginError from its constructor; across the C ABI that must arrive as
  // a status and a message (an exception crossing a shared-object boundary would abort instead).
  PluginCatalog catalog;
  const gsdk::host::LoadedPlugin* p = catalog.load_file(gsdk::test::plugin_dir() / "graveler.so");
  ASSERT_NE(p, nullptr);
  const gsdk_game& game = *p->tables.game;
  gsdk_param_value rolls{};
  rolls.name = "rolls";
  rolls.type = GSDK_PARAM_INT;
  rolls.int_value = 0;
  gsdk_game_instance* instance = nullptr;
  char error[256] = {};
  EXPECT_EQ(game.create(&rolls, 1, &instance, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(instance, nullptr);
  EXPECT_STREQ(error, "rolls = 0 is out of range [1, 1024]");
  EXPECT_EQ(game.create(nullptr, 0, &instance, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(error, "parameter 'rolls' was not passed by the host");
  rolls.int_value = 12;
  ASSERT_EQ(game.create(&rolls, 1, &instance, error, sizeof error), GSDK_OK) << error;
  unsigned char state[64] = {};
  EXPECT_EQ(game.state_from_string(instance, "rolls=13 ones=0", state, error, sizeof error), GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(error, "exceeds the game's 12 rolls")) << error;
  game.destroy(instance);
}

// A partial copy of a plugin used to be mapped by dlopen and die of SIGBUS; every prefix is now refused first.
TEST(PluginFileChecks, EveryPrefixOfARealPluginIsRefusedAsTruncated) {
  const std::string image = gsdk::test::read_file(gsdk::test::plugin_dir() / "graveler.so");
  ASSERT_GT(image.size(), 4096u);
  ASSERT_EQ(gsdk::host::plugin_file_problem(gsdk::test::plugin_dir() / "graveler.so"), std::nullopt);
  gsdk::test::TempDir dir;
  const fs::path file = dir / "cut.so";
  for (size_t cut = 1; cut < image.size(); cut += image.size() / 97) {
    gsdk::test::write_file(file, image.substr(0, cut));
    const auto problem = gsdk::host::plugin_file_problem(file);
    ASSERT_TRUE(problem.has_value()) << cut << " of " << image.size() << " bytes passed";
    if (cut >= 64) {
      EXPECT_TRUE(contains(*problem, "truncated: ")) << cut << ": " << *problem;
      EXPECT_TRUE(contains(*problem, "the file has " + std::to_string(cut) + " bytes")) << *problem;
    }
  }
  gsdk::test::write_file(file, image.substr(0, image.size() - 1));
  EXPECT_TRUE(gsdk::host::plugin_file_problem(file).has_value()) << "one byte short must be refused";
}

TEST(PluginFileChecks, TruncatedCopyInAFolderIsRefusedAndTheRestLoads) {
  gsdk::test::TempDir dir;
  const std::string image = gsdk::test::read_file(valid_nim());
  gsdk::test::write_file(dir / "a_half.so", image.substr(0, image.size() / 2));
  fs::copy_file(valid_nim(), dir / "b_nim.so");
  PluginCatalog catalog;
  catalog.load_directories({dir.path()});
  ASSERT_EQ(catalog.problems().size(), 1u);
  EXPECT_EQ(catalog.problems()[0].path, (dir / "a_half.so").string());
  EXPECT_TRUE(contains(catalog.problems()[0].message, "truncated: ")) << catalog.problems()[0].message;
  ASSERT_NE(catalog.find("test_nim"), nullptr) << catalog.names();
}

TEST(PluginFileChecks, ElfOfAnotherClassOrMachineIsRefused) {
  gsdk::test::TempDir dir;
  std::string image = gsdk::test::read_file(valid_nim());
  image[4] = 1; // ELFCLASS32
  gsdk::test::write_file(dir / "class32.so", image);
  std::string m = refusal(dir / "class32.so");
  EXPECT_TRUE(contains(m, "a 32-bit ELF file, expected a 64-bit one (ELFCLASS64)")) << m;
  image = gsdk::test::read_file(valid_nim());
  image[18] = 3, image[19] = 0; // EM_386
  gsdk::test::write_file(dir / "i386.so", image);
  m = refusal(dir / "i386.so");
  EXPECT_TRUE(contains(m, "built for x86 (32-bit) (e_machine 3), this gsdk for ")) << m;
  image = gsdk::test::read_file(valid_nim());
  image[5] = 2; // big-endian
  gsdk::test::write_file(dir / "big.so", image);
  m = refusal(dir / "big.so");
  EXPECT_TRUE(contains(m, "ELF byte order EI_DATA 2, this machine's is 1")) << m;
}

TEST(PluginFileChecks, NonRegularFilesAreRefusedWithoutOpeningThem) {
  gsdk::test::TempDir dir;
  ASSERT_EQ(mkfifo((dir / "pipe.so").c_str(), 0644), 0);
  fs::create_directory(dir / "folder.so");
  EXPECT_EQ(refusal(dir / "pipe.so"), "not a regular file: a FIFO (named pipe); a plugin is a shared object file");
  EXPECT_TRUE(contains(refusal(dir / "folder.so"), "not a regular file: a directory"));
  EXPECT_TRUE(
      contains(gsdk::host::plugin_file_problem("/dev/null").value_or(""), "not a regular file: a character device"));
  EXPECT_EQ(gsdk::host::plugin_file_problem(dir / "missing.so"), "cannot be read: No such file or directory");
}

TEST(PluginPermissions, WorldWritableFolderIsRefusedUnlessSkipped) {
  gsdk::test::TempDir dir;
  fs::copy_file(valid_nim(), dir / "nim.so");
  fs::permissions(dir.path(), fs::perms(0777));
  PluginCatalog checked;
  checked.load_directories({dir.path()});
  ASSERT_EQ(checked.problems().size(), 1u);
  EXPECT_EQ(checked.problems()[0].path, dir.path().string());
  EXPECT_TRUE(checked.problems()[0].folder);
  EXPECT_TRUE(contains(checked.problems()[0].message, "writable by others (mode 0777)"))
      << checked.problems()[0].message;
  EXPECT_TRUE(checked.plugins().empty());
  // One file of it, loaded alone, is refused naming the folder.
  const std::string m = refusal(dir / "nim.so");
  EXPECT_TRUE(contains(m, "its folder " + dir.path().string() + ": writable by others")) << m;

  PluginCatalog trusting(gsdk::host::PermissionCheck::skip);
  trusting.load_directories({dir.path()});
  EXPECT_TRUE(trusting.problems().empty());
  EXPECT_NE(trusting.find("test_nim"), nullptr);
}

TEST(PluginPermissions, GroupOrWorldWritableFileIsRefusedUnlessSkipped) {
  gsdk::test::TempDir dir;
  fs::copy_file(valid_nim(), dir / "nim.so");
  fs::permissions(dir / "nim.so", fs::perms(0664));
  std::string m = refusal(dir / "nim.so");
  EXPECT_TRUE(contains(m, "writable by its group (mode 0664)")) << m;
  fs::permissions(dir / "nim.so", fs::perms(0646));
  m = refusal(dir / "nim.so");
  EXPECT_TRUE(contains(m, "writable by others (mode 0646): anyone could replace this plugin")) << m;
  PluginCatalog trusting(gsdk::host::PermissionCheck::skip);
  EXPECT_NE(trusting.load_file(dir / "nim.so"), nullptr);
  fs::permissions(dir / "nim.so", fs::perms(0644));
  PluginCatalog checked;
  EXPECT_NE(checked.load_file(dir / "nim.so"), nullptr);
}

TEST(PluginCatalog, NamesOfAnEmptyCatalog) {
  PluginCatalog catalog;
  EXPECT_EQ(catalog.names(), "(none)");
}

// Explicit beats environment beats default; the defaults are the build folder's layout, then the
// installed one (bin/gsdk beside lib/gsdk/plugins), written without "..".
TEST(PluginSearchPath, PluginDirsThenEnvironmentThenBesideTheExecutableThenInstalledLayout) {
  ASSERT_EQ(setenv("GSDK_PLUGIN_PATH", "/env/one::/env/two", 1), 0);
  const auto dirs = gsdk::host::plugin_search_path({"/extra/a", "/extra/b"});
  unsetenv("GSDK_PLUGIN_PATH");
  ASSERT_EQ(dirs.size(), 6u);
  EXPECT_EQ(dirs[0], fs::path("/extra/a"));
  EXPECT_EQ(dirs[1], fs::path("/extra/b"));
  EXPECT_EQ(dirs[2], fs::path("/env/one"));
  EXPECT_EQ(dirs[3], fs::path("/env/two"));
  EXPECT_EQ(dirs[4], gsdk::test::plugin_dir());
  EXPECT_EQ(dirs[5], gsdk::test::bin_dir().parent_path() / "lib" / "gsdk" / "plugins");
}

// A user's own build of a shipped game, named with --plugin-dir, replaces the shipped copy beside the
// executable, which is refused as a duplicate naming the winner.
TEST(PluginSearchPath, PluginDirCopyOfAShippedGameWinsOverTheDefaultFolder) {
  const fs::path shipped = gsdk::test::plugin_dir() / "graveler.so";
  ASSERT_TRUE(fs::exists(shipped)) << shipped << " was not built";
  const gsdk::test::TempDir own;
  fs::copy_file(shipped, own / "graveler.so");
  unsetenv("GSDK_PLUGIN_PATH");
  PluginCatalog catalog;
  catalog.load_directories(gsdk::host::plugin_search_path({own.path().string()}));
  ASSERT_NE(catalog.find("graveler"), nullptr) << catalog.names();
  EXPECT_EQ(catalog.find("graveler")->tables.path, (own / "graveler.so").string());
  const auto refused = std::find_if(catalog.problems().begin(), catalog.problems().end(),
                                    [&](const auto& problem) { return problem.path == shipped.string(); });
  ASSERT_NE(refused, catalog.problems().end()) << "the shipped copy must be refused";
  EXPECT_TRUE(contains(refused->message, "already provided by " + (own / "graveler.so").string())) << refused->message;
}

// broken/ holds a second test_nim (test_nim_copy.so): named with --plugin-dir, it wins over the one
// in a GSDK_PLUGIN_PATH folder.
TEST(PluginSearchPath, PluginDirWinsOverTheEnvironment) {
  ASSERT_EQ(setenv("GSDK_PLUGIN_PATH", gsdk::test::test_plugin_dir("valid").c_str(), 1), 0);
  const auto dirs = gsdk::host::plugin_search_path({gsdk::test::test_plugin_dir("broken").string()});
  unsetenv("GSDK_PLUGIN_PATH");
  PluginCatalog catalog;
  catalog.load_directories(dirs);
  ASSERT_NE(catalog.find("test_nim"), nullptr) << catalog.names();
  EXPECT_EQ(catalog.find("test_nim")->tables.path, broken("test_nim_copy.so").string());
}

} // namespace
