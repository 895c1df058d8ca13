// toml_reader.cpp - the screen in front of toml::parse (toml_reader.hpp). Written by hand because the defect
// is in the library itself: the fix (toml++ pull request #305) is in no Debian release, and a patched copy
// of toml++ in the tree would be a fork to keep. The screen follows TOML 1.0's lexical structure only as
// far as telling strings and comments from the rest; everything else is left to toml++.
#include "config/toml_reader.hpp"

#include <cstdint>
#include <memory>
#include <vector>

#include <fmt/format.h>

namespace gsdk::host {

namespace {

// One step through UTF-8 text, counting lines and columns as toml++ does (columns in code points).
class Cursor {
public:
  explicit Cursor(std::string_view text) : text_(text) {
    // toml++ skips a byte order mark at the start and so must the screen.
    if (text_.starts_with("\xEF\xBB\xBF")) at_ = 3;
  }

  bool done() const { return at_ >= text_.size(); }
  char byte() const { return text_[at_]; }
  bool ascii() const { return static_cast<unsigned char>(text_[at_]) < 0x80; }
  bool at(std::string_view s) const { return text_.substr(at_).starts_with(s); }
  toml::source_position position() const { return {line_, column_}; }

  // The character here as "'X' (U+XXXX)", or "byte 0xXX, which is not UTF-8".
  std::string describe() const {
    const auto lead = static_cast<unsigned char>(text_[at_]);
    const std::string stray = fmt::format("byte 0x{:02X}, which is not UTF-8,", lead);
    const size_t length = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || at_ + length > text_.size()) return stray;
    uint32_t code = lead & (0x7F >> length);
    for (size_t i = 1; i < length; ++i) {
      const auto next = static_cast<unsigned char>(text_[at_ + i]);
      if ((next & 0xC0) != 0x80) return stray;
      code = (code << 6) | (next & 0x3F);
    }
    return fmt::format("'{}' (U+{:04X})", text_.substr(at_, length), code);
  }

  // Past one character: a whole UTF-8 sequence, or one stray byte.
  void advance() {
    if (text_[at_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++at_;
    while (at_ < text_.size() && (static_cast<unsigned char>(text_[at_]) & 0xC0) == 0x80) ++at_;
  }

  void advance(size_t characters) {
    for (size_t i = 0; i < characters && !done(); ++i) advance();
  }

private:
  std::string_view text_;
  size_t at_ = 0;
  toml::source_index line_ = 1;
  toml::source_index column_ = 1;
};

class Screen {
public:
  Screen(std::string_view text, const std::string& source)
      : cursor_(text), source_(std::make_shared<const std::string>(source)) {}

  void run() {
    while (!cursor_.done()) {
      const char here = cursor_.byte();
      if (here == ' ' || here == '\t') {
        cursor_.advance();
      } else if (here == '\n' || here == '\r') {
        cursor_.advance();
        // A line break ends a key/value pair or a table header, except inside an array.
        if (nesting_.empty()) expect_ = Expect::key;
      } else if (here == '#') {
        skip_comment();
      } else if (!cursor_.ascii()) {
        refuse("{} may appear only inside a quoted string or a comment (bare keys, numbers, dates and booleans "
               "are ASCII in TOML 1.0)");
      } else if (expect_ == Expect::value) {
        value();
      } else {
        key_or_punctuation(here);
      }
      previous_ = here;
    }
  }

private:
  // What the text holds next: a key (or a table header), a value (after '=', '[' or ',' in an array), or what
  // follows a value ('=' after a key, ',', a bracket, a comment, a line break).
  enum class Expect { key, value, after_value };

  static bool ends_unquoted_value(char c) {
    // toml++'s value terminators: whitespace (ASCII line breaks, vertical tab and form feed among it), ']', '}',
    // ',' and '#'.
    return std::string_view(" \t\n\v\f\r]},#").find(c) != std::string_view::npos;
  }

  void value() {
    const char here = cursor_.byte();
    if (here == '"' || here == '\'') {
      string();
      expect_ = Expect::after_value;
    } else if (here == '[' || here == '{') {
      nesting_.push_back(here);
      cursor_.advance();
      expect_ = here == '[' ? Expect::value : Expect::key;
    } else if (here == ']' || here == '}' || here == ',') {
      key_or_punctuation(here);  // an empty array, or a misplaced bracket or comma
    } else {
      unquoted_value();
    }
  }

  // A number, date, time or boolean. toml++ reads it ahead to the next value terminator before it parses it,
  // asking of every character on the way whether it is whitespace, quotes and '=' included: a quote inside the
  // run opens no string.
  void unquoted_value() {
    while (!cursor_.done() && !ends_unquoted_value(cursor_.byte())) {
      if (!cursor_.ascii())
        refuse("{} is inside an unquoted value (numbers, dates, times and booleans are ASCII in TOML 1.0; quote "
               "the whole value to make it a string)");
      cursor_.advance();
    }
    expect_ = Expect::after_value;
  }

  void key_or_punctuation(char here) {
    if (here == '"' || here == '\'') {
      screen_misplaced_quote();
      string();
      return;
    }
    cursor_.advance();
    const char inside = nesting_.empty() ? '\0' : nesting_.back();
    if (here == '=' && expect_ == Expect::key && !in_header_) {
      expect_ = Expect::value;
    } else if (here == '[' && expect_ == Expect::key && nesting_.empty()) {
      in_header_ = true;  // [table] or [[array of tables]]
    } else if (here == ']' && in_header_) {
      in_header_ = cursor_.at("]");
    } else if ((here == ']' && inside == '[') || (here == '}' && inside == '{')) {
      nesting_.pop_back();
      expect_ = Expect::after_value;
    } else if (here == ',' && inside != '\0') {
      expect_ = inside == '[' ? Expect::value : Expect::key;
    }
  }

  void string() {
    if (cursor_.at("\"\"\"")) {
      multi_line_basic_string();
    } else if (cursor_.at("'''")) {
      multi_line_literal_string();
    } else {
      single_line_string(cursor_.byte());
    }
  }

  // A quote opens a string only after whitespace, a line break, '=', ',', '.', '[' or '{'. Right after
  // anything else (`a"x" = 1`) the text is invalid, and toml++ may read on from there to the next value
  // terminator, asking of each character whether it is whitespace.
  void screen_misplaced_quote() {
    if (std::string_view(" \t\r\n=,.[{").find(previous_) != std::string_view::npos) return;
    Cursor ahead = cursor_;
    while (!ahead.done() && !ends_unquoted_value(ahead.byte())) {
      if (!ahead.ascii()) {
        cursor_ = ahead;
        refuse("{} follows a quote that opens no string (a quote right after a key or a value): put a space "
               "before the quote, or quote the whole key or value");
      }
      ahead.advance();
    }
  }

  void skip_comment() {
    while (!cursor_.done() && cursor_.byte() != '\n') cursor_.advance();
  }

  void single_line_string(char quote) {
    cursor_.advance();
    while (!cursor_.done() && cursor_.byte() != quote && cursor_.byte() != '\n') {
      if (quote == '"' && cursor_.byte() == '\\') cursor_.advance();
      cursor_.advance();
    }
    if (!cursor_.done() && cursor_.byte() == quote) cursor_.advance();
  }

  // A multi-line string ends at three quotes; up to two more right after them belong to the string.
  void close_multi_line(std::string_view quotes) {
    cursor_.advance(3);
    for (int extra = 0; extra < 2 && cursor_.at(quotes.substr(0, 1)); ++extra) cursor_.advance();
  }

  void multi_line_literal_string() {
    cursor_.advance(3);
    while (!cursor_.done() && !cursor_.at("'''")) cursor_.advance();
    if (!cursor_.done()) close_multi_line("'''");
  }

  void multi_line_basic_string() {
    cursor_.advance(3);
    while (!cursor_.done() && !cursor_.at("\"\"\"")) {
      if (cursor_.byte() != '\\') {
        cursor_.advance();
        continue;
      }
      cursor_.advance();
      if (cursor_.done()) return;
      if (!cursor_.ascii()) refuse("unknown escape sequence: a backslash before {}");
      if (cursor_.byte() == ' ' || cursor_.byte() == '\t' || cursor_.byte() == '\r' || cursor_.byte() == '\n') {
        line_ending_backslash();
        continue;
      }
      cursor_.advance();
    }
    if (!cursor_.done()) close_multi_line("\"\"\"");
  }

  // After "\" and whitespace: toml++ asks of each following character whether it is whitespace.
  void line_ending_backslash() {
    while (!cursor_.done() && (cursor_.byte() == ' ' || cursor_.byte() == '\t')) cursor_.advance();
    if (!cursor_.done() && !cursor_.ascii()) refuse_after_backslash();
    if (cursor_.done() || (cursor_.byte() != '\n' && cursor_.byte() != '\r')) return;
    while (!cursor_.done() &&
           (cursor_.byte() == ' ' || cursor_.byte() == '\t' || cursor_.byte() == '\r' || cursor_.byte() == '\n'))
      cursor_.advance();
    if (!cursor_.done() && !cursor_.ascii()) refuse_after_backslash();
  }

  void refuse_after_backslash() {
    refuse("{} right after a line-ending backslash cannot be read by toml++ 3.3.0 (Debian 12's TOML reader): "
           "write it as a \\u escape, or end the backslash's line with it");
  }

  // `message` has one {} for the character.
  [[noreturn]] void refuse(const char* message) {
    const std::string description = fmt::format(fmt::runtime(message), cursor_.describe());
    throw toml::parse_error(description.c_str(), cursor_.position(), source_);
  }

  Cursor cursor_;
  toml::source_path_ptr source_;
  Expect expect_ = Expect::key;
  std::vector<char> nesting_;  // the arrays ('[') and inline tables ('{') the text is inside, innermost last
  bool in_header_ = false;     // between a table header's brackets
  char previous_ = '\n';       // the first byte of the last token screened: a line break at the start
};

} // namespace

toml::table parse_toml(std::string_view text, const std::string& source) {
  Screen(text, source).run();
  return toml::parse(text, source);
}

} // namespace gsdk::host
