// template_folder.hpp - where gsdk's plugin templates are and which there are: `gsdk new-plugin --template` copies
// one, and the shell completion offers their names.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gsdk::host {

// The file that makes a folder a template (its identifier and description).
inline constexpr const char* kTemplateManifest = "gsdk-template.toml";

// <folder of gsdk>/../share/gsdk/templates, where an installation puts the templates and the build stages them.
std::filesystem::path templates_beside_gsdk();

// The template folders (those with a manifest) of `templates`, sorted; none when it is not a folder.
std::vector<std::string> template_names(const std::filesystem::path& templates);

} // namespace gsdk::host
