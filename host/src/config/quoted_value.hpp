// quoted_value.hpp - a value the user gave, quoted for a message. A long value (a 10 MB game name, a
// pasted file) is cut to its first bytes and its length is said, so that a message stays one readable
// line and a log stays small. Every config message that quotes what the user wrote goes through it
// (header-only: the plugin catalog's library quotes parameters too, and links below the host's).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace gsdk::host {

// The most bytes of a value a message shows.
inline constexpr size_t kShownValueBytes = 200;

// `text` between `quote`s; longer than kShownValueBytes: its first bytes (cut at a UTF-8 character
// boundary), "…" and its length, e.g. "abc…" (10485760 bytes).
inline std::string quote_value(std::string_view text, char quote = '"') {
  if (text.size() <= kShownValueBytes) return fmt::format("{}{}{}", quote, text, quote);
  size_t cut = kShownValueBytes;
  // A UTF-8 continuation byte (10xxxxxx) would leave half a character before the ellipsis.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return fmt::format("{}{}…{} ({} bytes)", quote, text.substr(0, cut), quote, text.size());
}

} // namespace gsdk::host
