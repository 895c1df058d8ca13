// gnuplot.cpp - runs gnuplot on a plot folder's script and reports its errors.
#include "report/gnuplot.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::host {

std::filesystem::path plot_folder(const std::string& stem) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("{}-{}", stem, ::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

std::ofstream open_plot_script(const std::filesystem::path& dir, const std::string& png_path, const std::string& title,
                               const std::string& terminal) {
  namespace fs = std::filesystem;
  if (const fs::path parent = fs::path(png_path).parent_path(); !parent.empty()) fs::create_directories(parent);
  std::ofstream script(dir / "plot.gp");
  script << "set terminal " << terminal << "\n"
         << "set output '" << fs::absolute(png_path).string() << "'\n"
         << "set title '" << title << "'\n";
  return script;
}

void run_gnuplot(const std::filesystem::path& dir) {
  const std::string command =
      fmt::format("gnuplot '{}' 2>'{}'", (dir / "plot.gp").string(), (dir / "err.txt").string());
  const int status = std::system(command.c_str());
  std::ifstream err(dir / "err.txt");
  const std::string err_text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  if (status != 0)
    throw std::runtime_error(fmt::format("gnuplot failed (exit status {}){}{} - is gnuplot installed?", status,
                                         err_text.empty() ? "" : ": ", err_text));
}

} // namespace gsdk::host
