// algorithm_listing.hpp - the registry's algorithms as `gsdk list --algorithms` prints them: each with what it
// does and the keys of its table and of [output], as text for a terminal or as the Markdown tables of the
// user guide (which a test holds equal to this output).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gsdk::host {

std::string algorithms_text();
std::string algorithms_markdown();
nlohmann::json algorithms_json();

} // namespace gsdk::host
