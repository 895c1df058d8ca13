// fit_tool.hpp - the fitting tool as a function, so that its tests run it without a process: options in,
// a weights file out (rules/weights_file.hpp). Returns the exit status: 0, 1 for a failed run (the output
// cannot be written), 2 for bad options.
#pragma once

#include <ostream>

namespace othello::fit {

int run_fit_evaluation(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace othello::fit
