// plugin_file_checks.cpp - the file-type and ELF checks before dlopen. The headers are read with <elf.h>'s
// structures: a handful of fields decide, so libelf (which would itself have to be kept from trusting the
// file's offsets) adds nothing.
#include "plugin_loading/plugin_file_checks.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

// The e_machine of the objects this build makes and can load.
#if defined(__x86_64__)
constexpr uint16_t kBuildMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kBuildMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr uint16_t kBuildMachine = EM_PPC64;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr uint16_t kBuildMachine = EM_RISCV;
#else
#error "plugin_file_checks.cpp: add this architecture's ELF e_machine value"
#endif
static_assert(sizeof(void*) == 8, "plugins are checked as 64-bit ELF objects");

std::string machine_name(uint16_t machine) {
  switch (machine) {
  case EM_386:
    return "x86 (32-bit)";
  case EM_X86_64:
    return "x86-64";
  case EM_ARM:
    return "Arm (32-bit)";
  case EM_AARCH64:
    return "AArch64";
  case EM_PPC64:
    return "PowerPC 64";
  case EM_RISCV:
    return "RISC-V";
  default:
    return fmt::format("e_machine {}", machine);
  }
}

std::string type_name(uint16_t type) {
  switch (type) {
  case ET_NONE:
    return "an ELF file of no type (e_type 0)";
  case ET_REL:
    return "an ELF relocatable object (e_type 1, a .o file)";
  case ET_EXEC:
    return "an ELF executable (e_type 2)";
  case ET_CORE:
    return "an ELF core dump (e_type 4)";
  default:
    return fmt::format("an ELF file of e_type {}", type);
  }
}

std::string kind_of_non_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a plain file";
}

// Closes the descriptor on every exit.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

// Reads exactly `length` bytes at `offset`; false on a short read or an error.
bool read_at(int fd, uint64_t offset, void* out, size_t length) {
  auto* bytes = static_cast<char*>(out);
  while (length > 0) {
    const ssize_t got = ::pread(fd, bytes, length, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    bytes += got, offset += static_cast<uint64_t>(got), length -= static_cast<size_t>(got);
  }
  return true;
}

// The end of [offset, offset + length) when it lies inside `size` bytes, else nullopt with `end` set to where
// it ends (saturated: a hostile offset must not wrap around to a small number).
std::optional<uint64_t> outside(uint64_t offset, uint64_t length, uint64_t size) {
  const uint64_t end = offset > UINT64_MAX - length ? UINT64_MAX : offset + length;
  if (end <= size) return std::nullopt;
  return end;
}

std::string truncated(const std::string& what, uint64_t end, uint64_t size) {
  return fmt::format("truncated: {} ends at byte {}, the file has {} bytes", what, end, size);
}

std::string describe_non_elf(const unsigned char* head, uint64_t size) {
  if (size == 0) return "not a shared object: expected an ELF shared library, found an empty file (0 bytes)";
  if (size < SELFMAG)
    return fmt::format("not a shared object: expected an ELF shared library, found a file of {} bytes", size);
  std::string shown;
  for (int i = 0; i < SELFMAG; ++i)
    shown += (head[i] >= 32 && head[i] < 127) ? std::string(1, static_cast<char>(head[i]))
                                              : fmt::format("\\x{:02x}", head[i]);
  return fmt::format("not a shared object: expected an ELF shared library, found a file starting with \"{}\"", shown);
}

// Class and byte order, read from e_ident alone (a 32-bit file's header is shorter than Elf64_Ehdr).
std::optional<std::string> ident_problem(const unsigned char* ident) {
  if (ident[EI_CLASS] != ELFCLASS64)
    return fmt::format("not a shared object for this machine: {} ELF file, expected a 64-bit one (ELFCLASS64)",
                       ident[EI_CLASS] == ELFCLASS32 ? "a 32-bit" : fmt::format("an EI_CLASS {}", ident[EI_CLASS]));
  const unsigned char native_order = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  if (ident[EI_DATA] != native_order)
    return fmt::format("not a shared object for this machine: ELF byte order EI_DATA {}, this machine's is {}",
                       ident[EI_DATA], native_order);
  return std::nullopt;
}

std::optional<std::string> header_problem(const Elf64_Ehdr& header, uint64_t size) {
  if (header.e_type != ET_DYN)
    return fmt::format("cannot be loaded as a shared library: {}, expected a shared object (ET_DYN, e_type 3)",
                       type_name(header.e_type));
  if (header.e_machine != kBuildMachine)
    return fmt::format("not a shared object for this machine: built for {} (e_machine {}), this gsdk for {} "
                       "(e_machine {})",
                       machine_name(header.e_machine), header.e_machine, machine_name(kBuildMachine), kBuildMachine);
  if (header.e_phnum == 0) return std::string("not a loadable shared object: it has no program headers");
  if (header.e_phentsize != sizeof(Elf64_Phdr))
    return fmt::format("malformed ELF header: program header entries of {} bytes, expected {}", header.e_phentsize,
                       sizeof(Elf64_Phdr));
  if (const auto end = outside(header.e_phoff, uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), size))
    return truncated("the program header table", *end, size);
  return std::nullopt;
}

// The segments first: they are what the loader maps, so their message says best what a partial copy lacks.
std::optional<std::string> contents_problem(int fd, const Elf64_Ehdr& header, uint64_t size) {
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!read_at(fd, header.e_phoff, segments.data(), segments.size() * sizeof(Elf64_Phdr)))
    return std::string("cannot read its program headers: the file changed while it was checked");
  for (size_t i = 0; i < segments.size(); ++i)
    if (const auto end = outside(segments[i].p_offset, segments[i].p_filesz, size))
      return truncated(fmt::format("segment {}{}", i, segments[i].p_type == PT_LOAD ? " (PT_LOAD)" : ""), *end, size);
  if (header.e_shoff == 0) return std::nullopt;
  if (header.e_shentsize != sizeof(Elf64_Shdr))
    return fmt::format("malformed ELF header: section header entries of {} bytes, expected {}", header.e_shentsize,
                       sizeof(Elf64_Shdr));
  // e_shnum 0 with a table means the count is kept in section 0 (more than 0xff00 sections): section 0 at least
  // must be there.
  const uint64_t table_entries = header.e_shnum == 0 ? 1 : header.e_shnum;
  if (const auto end = outside(header.e_shoff, table_entries * sizeof(Elf64_Shdr), size))
    return truncated("the section header table", *end, size);
  if (header.e_shnum == 0) return std::nullopt;
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!read_at(fd, header.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr)))
    return std::string("cannot read its section headers: the file changed while it was checked");
  for (size_t i = 0; i < sections.size(); ++i)
    if (sections[i].sh_type != SHT_NOBITS)
      if (const auto end = outside(sections[i].sh_offset, sections[i].sh_size, size))
        return truncated(fmt::format("section {}", i), *end, size);
  return std::nullopt;
}

} // namespace

std::optional<std::string> plugin_file_problem(const std::filesystem::path& file) {
  // stat first: opening a FIFO for reading blocks until a writer comes, and opening a device can act on it.
  struct stat named {};
  if (::stat(file.c_str(), &named) != 0) return fmt::format("cannot be read: {}", std::strerror(errno));
  if (!S_ISREG(named.st_mode))
    return fmt::format("not a regular file: {}; a plugin is a shared object file", kind_of_non_regular(named.st_mode));
  // O_NONBLOCK: should a FIFO have replaced the file since the stat, the open returns instead of waiting; fstat
  // then sees that what was opened is not the file that was checked.
  const FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) return fmt::format("cannot be opened: {}", std::strerror(errno));
  struct stat opened {};
  if (::fstat(fd.get(), &opened) != 0) return fmt::format("cannot be read: {}", std::strerror(errno));
  if (!S_ISREG(opened.st_mode) || opened.st_dev != named.st_dev || opened.st_ino != named.st_ino)
    return std::string("changed while it was checked: it is no longer the regular file that was found");
  const uint64_t size = static_cast<uint64_t>(opened.st_size);

  Elf64_Ehdr header{};
  const size_t head_bytes = size < sizeof header ? static_cast<size_t>(size) : sizeof header;
  if (!read_at(fd.get(), 0, &header, head_bytes)) return fmt::format("cannot be read: {}", std::strerror(errno));
  if (size < SELFMAG || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return describe_non_elf(header.e_ident, size);
  if (size < EI_NIDENT)
    return fmt::format("truncated: the ELF identification needs {} bytes, the file has {} bytes", EI_NIDENT, size);
  if (auto problem = ident_problem(header.e_ident)) return problem;
  if (size < sizeof header)
    return fmt::format("truncated: the ELF header needs {} bytes, the file has {} bytes", sizeof header, size);
  if (auto problem = header_problem(header, size)) return problem;
  return contents_problem(fd.get(), header, size);
}

} // namespace gsdk::host
