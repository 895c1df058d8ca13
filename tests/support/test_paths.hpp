// test_paths.hpp - where a test finds build outputs (the gsdk executable, plugins, test plugins) and
// scratch space, all relative to the test executable itself, so a build folder carried to another
// machine (the GPU machine) at another absolute path still runs its tests.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gsdk::test {

// The folder holding this test executable (build/bin).
inline std::filesystem::path bin_dir() {
  return std::filesystem::canonical("/proc/self/exe").parent_path();
}

inline std::filesystem::path gsdk_executable() { return bin_dir() / "gsdk"; }
inline std::filesystem::path plugin_dir() { return bin_dir() / "plugins"; }
// Deliberately broken and small valid plugins built by tests/abi/broken_plugins.
inline std::filesystem::path test_plugin_dir(const std::string& which) { return bin_dir() / "test_plugins" / which; }

// The *.so files of a folder, sorted.
inline std::vector<std::filesystem::path> shared_objects(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".so") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A fresh folder under the system's temporary folder, removed with the object.
class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gsdk-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

inline std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace gsdk::test
