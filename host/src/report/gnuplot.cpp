// gnuplot.cpp - runs gnuplot on a plot folder's script and reports its errors.
#include "report/gnuplot.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "report/output_file.hpp"

namespace gsdk::host {

namespace {

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

std::string gnuplot_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'')
      out += "''";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out + "'";
}

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::filesystem::path plot_folder(const std::string& stem) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("{}-{}", stem, ::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

std::ofstream open_plot_script(const std::filesystem::path& dir, const std::string& title,
                               const std::string& terminal) {
  std::ofstream script(dir / "plot.gp");
  script << "set terminal " << terminal << "\n"
         << "set output " << gnuplot_quoted((dir / "plot.png").string()) << "\n"
         << "set title " << gnuplot_quoted(title) << " noenhanced\n";
  return script;
}

void run_gnuplot(const std::filesystem::path& dir, const std::string& png_path) {
  const std::string command = fmt::format("gnuplot {} 2>{}", shell_quoted((dir / "plot.gp").string()),
                                          shell_quoted((dir / "err.txt").string()));
  const int status = std::system(command.c_str());
  const std::string err_text = file_text(dir / "err.txt");
  const std::string picture = file_text(dir / "plot.png");
  std::filesystem::remove_all(dir);
  if (status != 0)
    throw std::runtime_error(fmt::format("gnuplot failed (exit status {}){}{} - is gnuplot installed?", status,
                                         err_text.empty() ? "" : ": ", err_text));
  write_file(png_path, picture);
}

} // namespace gsdk::host
