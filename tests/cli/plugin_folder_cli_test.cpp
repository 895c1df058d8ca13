// plugin_folder_cli_test.cpp - a plugin folder full of bad files cannot take gsdk down, and plugins other users
// could have changed are refused before any of their code runs.
//
// The folder holds a good plugin (a copy of othello.so) beside truncated copies of it (10, 50, 75 and 95 %), a
// FIFO, a directory and a text file named *.so, a 32-bit ELF header, a copy built "for another machine" and an
// empty file: `gsdk list` ends (each run is killed after a minute, so a hang fails the test rather than the
// suite), lists the good plugin and names each refused file with its reason, and `gsdk perft`/`gsdk run` on
// the good game still work. A plugin whose static constructor creates a marker file (faulty_nim_marks_on_load)
// shows whether a refused plugin ran any code: a world-writable folder, a group-writable file and a file of
// another user are refused with a warning and leave no marker; --allow-unsafe-plugin-dirs or
// GSDK_ALLOW_UNSAFE_PLUGINS=1 loads them; a sticky world-writable folder (as /tmp) is accepted.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

constexpr const char* kMarkerPlugin = "faulty_nim_marks_on_load";

// Sets an environment variable for one scope (gsdk inherits the test's environment).
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* name_;
};

class PluginFolderCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << "gsdk was not built";
    fs::create_directory(plugins);
    fs::permissions(plugins, fs::perms(0755));
  }
  // gsdk with `args` in the work folder, killed after a minute: a hang comes back as a failed status.
  Outcome gsdk(const std::vector<std::string>& args) {
    std::vector<std::string> timed = {"-s", "KILL", "60", gsdk::test::gsdk_executable().string()};
    timed.insert(timed.end(), args.begin(), args.end());
    return gsdk::test::program_run("/usr/bin/timeout", timed, work.path());
  }
  // `gsdk list --json` of the test's folder (and the extra arguments).
  nlohmann::json list_json(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"list", "--json", "--plugin-dir", plugins.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome r = gsdk(args);
    EXPECT_EQ(r.status, 0) << describe(r);
    return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
  }
  // The message `gsdk list --json` gives for refusing `path`, or "" when it was not refused.
  static std::string refusal(const nlohmann::json& doc, const fs::path& path) {
    for (const nlohmann::json& r : doc.value("refused", nlohmann::json::array()))
      if (r["path"] == path.string()) return r["message"].get<std::string>();
    return "";
  }
  // The path of the listed plugin named `name`, or "" when it is not listed.
  static std::string listed_path(const nlohmann::json& doc, const std::string& name) {
    for (const nlohmann::json& p : doc.value("plugins", nlohmann::json::array()))
      if (p["name"] == name) return p["path"].get<std::string>();
    return "";
  }
  // Copies the marker plugin into the test's folder; gsdk's loading it creates `marker`.
  fs::path add_marker_plugin() {
    const fs::path source = gsdk::test::test_plugin_dir("faulty") / (std::string(kMarkerPlugin) + ".so");
    EXPECT_TRUE(fs::exists(source)) << source << " was not built";
    const fs::path copy = plugins / (std::string(kMarkerPlugin) + ".so");
    fs::copy_file(source, copy);
    fs::permissions(copy, fs::perms(0755));
    return copy;
  }
  fs::path marker() const { return work / "loaded.marker"; }

  gsdk::test::TempDir work;
  fs::path plugins = work / "plugins";
};

std::string read_prefix(const fs::path& file, double fraction) {
  const std::string bytes = gsdk::test::read_file(file);
  return bytes.substr(0, static_cast<size_t>(static_cast<double>(bytes.size()) * fraction));
}

TEST_F(PluginFolderCli, BadFilesAreRefusedByNameAndTheGoodPluginStillWorks) {
  const fs::path shipped = gsdk::test::plugin_dir() / "othello.so";
  ASSERT_TRUE(fs::exists(shipped)) << shipped << " was not built";
  const std::string image = gsdk::test::read_file(shipped);
  gsdk::test::write_file(plugins / "othello.so", image);
  const std::pair<const char*, double> cuts[] = {
      {"cut10.so", 0.10}, {"cut50.so", 0.50}, {"cut75.so", 0.75}, {"cut95.so", 0.95}};
  for (const auto& [name, fraction] : cuts) gsdk::test::write_file(plugins / name, read_prefix(shipped, fraction));
  ASSERT_EQ(mkfifo((plugins / "x.so").c_str(), 0644), 0);
  fs::create_directory(plugins / "y.so");
  fs::permissions(plugins / "y.so", fs::perms(0755));
  gsdk::test::write_file(plugins / "z.so", "a text file, not a plugin\n");
  gsdk::test::write_file(plugins / "empty.so", "");
  // A 32-bit x86 shared object's identification and header (52 bytes: ELFCLASS32, little-endian, ET_DYN, EM_386).
  std::string elf32(52, '\0');
  elf32[0] = 0x7f, elf32[1] = 'E', elf32[2] = 'L', elf32[3] = 'F', elf32[4] = 1, elf32[5] = 1, elf32[6] = 1;
  elf32[16] = 3, elf32[18] = 3;
  gsdk::test::write_file(plugins / "elf32.so", elf32);
  // The good plugin with e_machine (bytes 18-19, little-endian) naming a machine other than this one.
  std::string foreign = image;
  const bool x86_64 = static_cast<unsigned char>(image[18]) == 62 && image[19] == 0;
  foreign[18] = static_cast<char>(x86_64 ? 183 : 62); // EM_AARCH64 or EM_X86_64
  gsdk::test::write_file(plugins / "foreign.so", foreign);

  const nlohmann::json doc = list_json();
  EXPECT_EQ(listed_path(doc, "othello"), (plugins / "othello.so").string()) << doc.dump(2);
  for (const auto& [name, fraction] : cuts) {
    const std::string m = refusal(doc, plugins / name);
    const size_t size = fs::file_size(plugins / name);
    EXPECT_TRUE(contains(m, "truncated: ")) << name << ": " << m;
    EXPECT_TRUE(contains(m, " ends at byte ")) << name << ": " << m;
    EXPECT_TRUE(contains(m, "the file has " + std::to_string(size) + " bytes")) << name << ": " << m;
  }
  const std::pair<const char*, const char*> expected[] = {
      {"x.so", "not a regular file: a FIFO (named pipe)"},
      {"y.so", "not a regular file: a directory"},
      {"z.so", "not a shared object: expected an ELF shared library, found a file starting with \"a te\""},
      {"empty.so", "found an empty file (0 bytes)"},
      {"elf32.so", "not a shared object for this machine: a 32-bit ELF file, expected a 64-bit one"},
      {"foreign.so", x86_64 ? "not a shared object for this machine: built for AArch64 (e_machine 183)"
                            : "not a shared object for this machine: built for x86-64 (e_machine 62)"},
  };
  for (const auto& [name, message] : expected)
    EXPECT_TRUE(contains(refusal(doc, plugins / name), message)) << name << ": " << refusal(doc, plugins / name);

  // The text listing names each refused file too.
  const Outcome text = gsdk({"list", "--plugin-dir", plugins.string()});
  ASSERT_EQ(text.status, 0) << describe(text);
  for (const char* name : {"cut10.so", "cut95.so", "x.so", "y.so", "z.so", "empty.so", "elf32.so", "foreign.so"})
    EXPECT_TRUE(contains(text.out, "refused: " + (plugins / name).string() + "\n")) << name << "\n" << text.out;

  const Outcome perft = gsdk({"perft", "othello", "start", "5", "--device", "cpu", "--plugin-dir", plugins.string()});
  ASSERT_EQ(perft.status, 0) << describe(perft);
  EXPECT_TRUE(contains(perft.out, "1396")) << perft.out;
  EXPECT_TRUE(
      contains(perft.err, "gsdk: warning: plugin " + (plugins / "x.so").string() + " refused: not a regular file"))
      << perft.err;
  gsdk::test::write_file(work / "o.toml", "game = \"othello\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 2000\n"
                                          "[run]\ndevice = \"cpu\"\n");
  const Outcome run = gsdk({"run", "o.toml", "-q", "--plugin-dir", plugins.string(), "--out", "o.json"});
  ASSERT_EQ(run.status, 0) << describe(run);
  const nlohmann::json results = nlohmann::json::parse(gsdk::test::read_file(work / "o.json"));
  EXPECT_EQ(results["status"], "complete") << results.dump(2);
}

TEST_F(PluginFolderCli, WorldWritableFolderIsRefusedBeforeAnyOfItsCodeRuns) {
  add_marker_plugin();
  fs::permissions(plugins, fs::perms(0777));
  const ScopedEnv env("GSDK_TEST_LOAD_MARKER", marker().string());
  const nlohmann::json doc = list_json();
  EXPECT_EQ(listed_path(doc, kMarkerPlugin), "") << doc.dump(2);
  const std::string m = refusal(doc, plugins);
  EXPECT_TRUE(contains(m, "writable by others (mode 0777): anyone could replace a plugin in it; pass "
                          "--allow-unsafe-plugin-dirs or set GSDK_ALLOW_UNSAFE_PLUGINS=1 if you mean it"))
      << m;
  EXPECT_FALSE(fs::exists(marker())) << "a refused plugin's constructor ran";

  // Commands that load plugins say so on stderr and go on with the other folders.
  const Outcome perft = gsdk({"perft", "othello", "start", "3", "--device", "cpu", "--plugin-dir", plugins.string()});
  ASSERT_EQ(perft.status, 0) << describe(perft);
  EXPECT_TRUE(contains(perft.err,
                       "gsdk: warning: plugin folder " + plugins.string() + " refused: writable by others (mode 0777)"))
      << perft.err;
  EXPECT_FALSE(fs::exists(marker())) << "a refused plugin's constructor ran";
}

TEST_F(PluginFolderCli, OverrideLoadsFromAnUnsafeFolder) {
  add_marker_plugin();
  fs::permissions(plugins, fs::perms(0777));
  const ScopedEnv env("GSDK_TEST_LOAD_MARKER", marker().string());
  nlohmann::json doc = list_json({"--allow-unsafe-plugin-dirs"});
  EXPECT_EQ(listed_path(doc, kMarkerPlugin), (plugins / (std::string(kMarkerPlugin) + ".so")).string()) << doc.dump(2);
  EXPECT_TRUE(fs::exists(marker())) << "the marker plugin must mark its loading, or the refusal tests prove nothing";

  fs::remove(marker());
  const ScopedEnv allow("GSDK_ALLOW_UNSAFE_PLUGINS", "1");
  doc = list_json();
  EXPECT_NE(listed_path(doc, kMarkerPlugin), "") << doc.dump(2);
  EXPECT_TRUE(fs::exists(marker()));
}

TEST_F(PluginFolderCli, UnknownOverrideValueWarnsAndStillRefuses) {
  add_marker_plugin();
  fs::permissions(plugins, fs::perms(0777));
  const ScopedEnv allow("GSDK_ALLOW_UNSAFE_PLUGINS", "yes");
  const Outcome r = gsdk({"list", "--plugin-dir", plugins.string()});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "GSDK_ALLOW_UNSAFE_PLUGINS is \"yes\", expected 1 (allow) or 0")) << r.err;
  EXPECT_TRUE(contains(r.out, "refused: " + plugins.string() + "\n  writable by others (mode 0777)")) << r.out;
}

TEST_F(PluginFolderCli, StickyWorldWritableFolderIsAccepted) {
  add_marker_plugin();
  fs::permissions(plugins, fs::perms(01777));
  const ScopedEnv env("GSDK_TEST_LOAD_MARKER", marker().string());
  const nlohmann::json doc = list_json();
  EXPECT_NE(listed_path(doc, kMarkerPlugin), "") << doc.dump(2);
  EXPECT_EQ(refusal(doc, plugins), "");
}

TEST_F(PluginFolderCli, GroupWritableFileIsRefusedBeforeAnyOfItsCodeRuns) {
  const fs::path plugin = add_marker_plugin();
  fs::permissions(plugin, fs::perms(0775));
  const ScopedEnv env("GSDK_TEST_LOAD_MARKER", marker().string());
  const nlohmann::json doc = list_json();
  EXPECT_EQ(listed_path(doc, kMarkerPlugin), "") << doc.dump(2);
  const std::string m = refusal(doc, plugin);
  EXPECT_TRUE(contains(m, "writable by its group (mode 0775): every member of group ")) << m;
  EXPECT_TRUE(contains(m, "could replace this plugin; pass --allow-unsafe-plugin-dirs")) << m;
  EXPECT_FALSE(fs::exists(marker())) << "a refused plugin's constructor ran";
}

TEST_F(PluginFolderCli, FileOfAnotherUserIsRefused) {
  const fs::path plugin = add_marker_plugin();
  if (geteuid() != 0 || chown(plugin.c_str(), 65534, static_cast<gid_t>(-1)) != 0)
    GTEST_SKIP() << "giving a file to another user needs root";
  const ScopedEnv env("GSDK_TEST_LOAD_MARKER", marker().string());
  const nlohmann::json doc = list_json();
  EXPECT_EQ(listed_path(doc, kMarkerPlugin), "") << doc.dump(2);
  const std::string m = refusal(doc, plugin);
  EXPECT_TRUE(contains(m, "owned by user 65534")) << m;
  EXPECT_TRUE(contains(m, "not by you (user 0")) << m;
  EXPECT_FALSE(fs::exists(marker())) << "a refused plugin's constructor ran";
}

TEST_F(PluginFolderCli, CheckRefusesAnUnsafeFolderUnlessAllowed) {
  const fs::path plugin = add_marker_plugin();
  fs::permissions(plugins, fs::perms(0777));
  const ScopedEnv env("GSDK_TEST_LOAD_MARKER", marker().string());
  Outcome r = gsdk({"check", plugin.string(), "--only", "abi.negotiation"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(
      contains(r.err, plugin.string() + ": its folder " + plugins.string() + ": writable by others (mode 0777)"))
      << r.err;
  EXPECT_FALSE(fs::exists(marker())) << "a refused plugin's constructor ran";
  r = gsdk({"check", plugin.string(), "--only", "abi.negotiation", "--allow-unsafe-plugin-dirs"});
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(fs::exists(marker()));
}

} // namespace
