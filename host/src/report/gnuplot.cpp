// gnuplot.cpp - runs gnuplot on a plot folder's script and reports its errors.
#include "report/gnuplot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "report/input_file.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

namespace {

// The shell's exit status for a command it cannot find (POSIX), for one it found but cannot run, and the base of the
// status it gives for a command killed by a signal (128 + the signal's number).
constexpr int kCommandNotFound = 127;
constexpr int kCommandNotExecutable = 126;
constexpr int kKilledBase = 128;

// What `path` holds, or nothing when it cannot be read (gnuplot wrote no message, or no picture).
std::string file_text(const std::filesystem::path& path) {
  InputFile in = open_input_file(path.string());
  if (!in.failure.empty()) return "";
  return std::string((std::istreambuf_iterator<char>(in.stream)), std::istreambuf_iterator<char>());
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string killed_by(int signal, const std::string& said) {
  const char* name = sigabbrev_np(signal);
  return fmt::format("gnuplot was killed by signal {}{}{}", signal, name ? fmt::format(" (SIG{})", name) : "", said);
}

} // namespace

std::string gnuplot_failure(int status, int system_errno, const std::string& err_text) {
  if (status == 0) return "";
  const std::string said = trimmed(err_text).empty() ? "" : ": " + trimmed(err_text);
  if (status == -1) return fmt::format("cannot start a shell to run gnuplot: {}", system_reason(system_errno));
  // The shell itself killed (it may have replaced itself with gnuplot), or gnuplot killed under the shell.
  if (WIFSIGNALED(status)) return killed_by(WTERMSIG(status), said);
  if (!WIFEXITED(status)) return fmt::format("gnuplot ended abnormally (wait status {}){}", status, said);
  const int code = WEXITSTATUS(status);
  if (code == kCommandNotFound)
    return "gnuplot is not installed (or not on PATH): install it (apt install gnuplot-nox) or leave the picture out "
           "(no [output] plot in the experiment, or --plot '')";
  if (code == kCommandNotExecutable) return fmt::format("gnuplot was found but cannot be run{}", said);
  if (code > kKilledBase && code < kKilledBase + NSIG) return killed_by(code - kKilledBase, said);
  return fmt::format("gnuplot failed (exit status {}){}", code, said);
}

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

int64_t integer_tic_step(int64_t lo, int64_t hi) {
  constexpr int64_t kMostTicks = 10;
  const int64_t span = hi > lo ? hi - lo : 0;
  for (int64_t power = 1;; power *= 10)
    for (const int64_t step : {power, 2 * power, 5 * power})
      if (span / step <= kMostTicks) return step;
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
  errno = 0;
  const int status = std::system(command.c_str());
  const int system_errno = errno;
  const std::string err_text = file_text(dir / "err.txt");
  const std::string picture = file_text(dir / "plot.png");
  std::filesystem::remove_all(dir);
  if (const std::string failure = gnuplot_failure(status, system_errno, err_text); !failure.empty())
    throw std::runtime_error(failure);
  if (picture.empty())
    throw std::runtime_error(
        fmt::format("gnuplot drew no picture{}", trimmed(err_text).empty() ? "" : ": " + trimmed(err_text)));
  write_file(png_path, picture);
}

} // namespace gsdk::host
