// plugin_file.cpp - the ELF size check (the headers are read with <elf.h>'s structures: a few fields, no
// need for libelf) and the trial load in a child.
#include "conformance/plugin_file.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "conformance/child_process.hpp"
#include "plugins/plugin_catalog.hpp"

namespace gsdk::host::conformance {

std::optional<std::string> truncated_elf(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return std::nullopt;
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) return std::nullopt;
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (ec) return std::nullopt;
  uint64_t needed = std::max<uint64_t>(header.e_phoff + uint64_t{header.e_phnum} * header.e_phentsize,
                                       header.e_shoff + uint64_t{header.e_shnum} * header.e_shentsize);
  if (header.e_phentsize == sizeof(Elf64_Phdr) &&
      header.e_phoff + uint64_t{header.e_phnum} * sizeof(Elf64_Phdr) <= size) {
    std::vector<Elf64_Phdr> segments(header.e_phnum);
    in.seekg(static_cast<std::streamoff>(header.e_phoff));
    if (in.read(reinterpret_cast<char*>(segments.data()),
                static_cast<std::streamsize>(segments.size() * sizeof(Elf64_Phdr))))
      for (const Elf64_Phdr& s : segments) needed = std::max<uint64_t>(needed, s.p_offset + s.p_filesz);
  }
  if (needed <= size) return std::nullopt;
  return fmt::format("truncated: its ELF headers describe {} bytes, the file has {}", needed, size);
}

std::optional<std::string> loading_kills(const std::filesystem::path& file, double timeout_seconds) {
  const ChildRun run = run_in_child(
      [&] {
        PluginCatalog catalog;
        catalog.load_file(file);
        return std::string("loaded");
      },
      timeout_seconds);
  if (run.end == ChildRun::End::returned) return std::nullopt;
  return "loading it " + describe_ending(run, timeout_seconds);
}

} // namespace gsdk::host::conformance
