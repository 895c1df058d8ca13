// template_folder.cpp - the templates' folder and names (template_folder.hpp).
#include "commands/template_folder.hpp"

#include <algorithm>

#include <boost/dll/runtime_symbol_info.hpp>

namespace gsdk::host {

namespace fs = std::filesystem;

fs::path templates_beside_gsdk() {
  return (fs::path(boost::dll::program_location().parent_path().string()) / "../share/gsdk/templates")
      .lexically_normal();
}

std::vector<std::string> template_names(const fs::path& templates) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator entry(templates, ec), end; !ec && entry != end; entry.increment(ec))
    if (entry->is_directory() && fs::is_regular_file(entry->path() / kTemplateManifest))
      names.push_back(entry->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace gsdk::host
