// version.cpp - `gsdk version [--json]` (also -V, --version): gsdk's version and the plugin ABI it speaks, as a line
// or as one JSON document for scripts.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands/command_line.hpp"
#include "gsdk/gsdk_plugin.h"

namespace gsdk::host {

int command_version(const Arguments& args) {
  po::options_description options("gsdk version");
  options.add_options()("help,h", "show this help")("json", "print the same as one JSON document");
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk version [--json]", options, {}, vm)) return *exit;
  if (vm.count("json")) {
    const nlohmann::json document = {{"gsdk", GSDK_VERSION},
                                     {"abi", {{"major", GSDK_ABI_MAJOR}, {"minor", GSDK_ABI_MINOR}}}};
    std::cout << document.dump(2) << '\n';
    return kExitOk;
  }
  std::printf("gsdk %s (ABI %u.%u)\n", GSDK_VERSION, GSDK_ABI_MAJOR, GSDK_ABI_MINOR);
  return kExitOk;
}

} // namespace gsdk::host
