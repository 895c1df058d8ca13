// gnuplot.cpp - runs gnuplot on a plot folder's script and reports its errors.
#include "gnuplot.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::host {

std::filesystem::path plot_folder(const std::string& stem) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("{}-{}", stem, ::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

void run_gnuplot(const std::filesystem::path& dir) {
  const std::string command = fmt::format("gnuplot '{}' 2>'{}'", (dir / "plot.gp").string(), (dir / "err.txt").string());
  const int status = std::system(command.c_str());
  std::ifstream err(dir / "err.txt");
  const std::string err_text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  if (status != 0)
    throw std::runtime_error(fmt::format("gnuplot failed (exit status {}){}{} - is gnuplot installed?", status,
                                         err_text.empty() ? "" : ": ", err_text));
}

} // namespace gsdk::host
