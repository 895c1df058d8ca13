// man_page.hpp - gsdk(1), the groff man page, written from the command table and each command's option table
// (option_table.hpp) by `gsdk help --man`; the build writes it to gsdk.1 and `cmake --install` installs it.
#pragma once

#include <string>

namespace gsdk::host {

std::string man_page();

} // namespace gsdk::host
