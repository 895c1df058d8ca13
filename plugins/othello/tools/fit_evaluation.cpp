// fit_evaluation.cpp - the command line of Othello's evaluation fitting tool (fit_tool.cpp does the work).
#include <iostream>

#include "fit_tool.hpp"

int main(int argc, char** argv) {
  return othello::fit::run_fit_evaluation(argc, argv, std::cout, std::cerr);
}
