// toml_reader.cpp - the screen in front of toml::parse (toml_reader.hpp). Written by hand because the defect
// is in the library itself: the fix (toml++ pull request #305) is in no Debian release, and a patched copy
// of toml++ in the tree would be a fork to keep. The screen follows TOML 1.0's lexical structure only as
// far as telling strings and comments from the rest; everything else is left to toml++.
#include "config/toml_reader.hpp"

#include <cstdint>
#include <memory>

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
      if (cursor_.at("#")) {
        skip_comment();
      } else if (cursor_.at("\"\"\"")) {
        multi_line_basic_string();
      } else if (cursor_.at("'''")) {
        multi_line_literal_string();
      } else if (cursor_.at("\"") || cursor_.at("'")) {
        single_line_string(cursor_.byte());
      } else if (!cursor_.ascii()) {
        refuse("{} may appear only inside a quoted string or a comment (bare keys, numbers, dates and booleans "
               "are ASCII in TOML 1.0)");
      } else {
        cursor_.advance();
      }
    }
  }

private:
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
};

} // namespace

toml::table parse_toml(std::string_view text, const std::string& source) {
  Screen(text, source).run();
  return toml::parse(text, source);
}

} // namespace gsdk::host
