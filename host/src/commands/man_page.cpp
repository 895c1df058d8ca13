// man_page.cpp - gsdk(1) in the man(7) macros: NAME, SYNOPSIS, DESCRIPTION, one subsection per command with its
// usage and options (the texts --help shows), EXIT STATUS, ENVIRONMENT, FILES.
#include "commands/man_page.hpp"

#include <fmt/format.h>

#include "commands/command_table.hpp"
#include "commands/option_table.hpp"

namespace gsdk::host {

namespace {

// `text` as groff input: a backslash is written \e, a minus \- (so that it is not a hyphen and copies as one),
// and a line that would start with a control character ('.' or '\'') is protected by \&.
std::string escaped(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string option_item(const OptionRow& row) {
  std::string names = "\\fB" + escaped(row.long_name) + "\\fR";
  if (!row.short_name.empty()) names = "\\fB" + escaped(row.short_name) + "\\fR, " + names;
  if (row.takes_value) names += " \\fI" + escaped(row.parameter) + "\\fR";
  return fmt::format(".TP\n{}\n{}\n", names, escaped(row.description));
}

std::string command_section(const CommandEntry& command) {
  const OptionTable table = option_table_of(command);
  std::string out = fmt::format(".SS {}\n{}.\n.PP\n.nf\n{}\n.fi\n", escaped(command.name), escaped(command.summary),
                                escaped(table.usage));
  for (const OptionRow& row : table.options) out += option_item(row);
  return out;
}

} // namespace

std::string man_page() {
  std::string commands;
  for (const CommandEntry& c : command_table()) commands += command_section(c);
  return fmt::format(R"(.\" gsdk.1 - written by `gsdk help --man` from gsdk's command and option tables; do not edit.
.TH GSDK 1 "" "gsdk {version}" "User Commands"
.SH NAME
gsdk \- massively parallel game simulation and search
.SH SYNOPSIS
.B gsdk
.I command
.RI [ options ]
.RI [ operands ]
.br
.B gsdk help
.RI [ command " | " \-\-man ]
.SH DESCRIPTION
.B gsdk
loads game plugins (shared objects) through a stable C interface and runs experiments on them on CPU threads and
NVIDIA GPUs: playouts, perft, nested Monte Carlo search, Q\-learning, matches between agents.
Experiments are TOML files; every results file carries a digest of its result.
.B gsdk help
.I command
is
.B gsdk
.I command
.BR \-\-help .
Words after
.B \-\-
are operands even when they start with a minus.
.SH COMMANDS
{commands}.SH EXIT STATUS
.TP
.B 0
success
.TP
.B 1
a run that failed or is incomplete (a wrong count, an interrupted run, an output that could not be written)
.TP
.B 2
bad usage or input: an unknown option, a config mistake (named with its file, line and column), a refused plugin
.SH ENVIRONMENT
.TP
.B GSDK_PLUGIN_PATH
folders to load plugins from, separated by colons, searched after
.B \-\-plugin\-dir
and before the folders beside the executable
.TP
.B GSDK_ALLOW_UNSAFE_PLUGINS
1 loads plugins even from files or folders that other users can write (as
.BR \-\-allow\-unsafe\-plugin\-dirs );
0 or unset refuses them
.TP
.B TMPDIR
where pictures are drawn before they are moved to their path
.SH FILES
.TP
.I <executable folder>/plugins/*.so
.TQ
.I <executable folder>/../lib/gsdk/plugins/*.so
the plugins found without
.B \-\-plugin\-dir
or
.B GSDK_PLUGIN_PATH
.TP
.I results/<name>.json
a run's results when neither
.B \-\-out
nor [output] file names a file
.SH SEE ALSO
.BR gnuplot (1);
the user guide, share/doc/gsdk/user_guide.md
)",
                     fmt::arg("version", GSDK_VERSION), fmt::arg("commands", commands));
}

} // namespace gsdk::host
