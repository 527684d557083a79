#include "models/scenario/toml_guard.h"

namespace models {

namespace {

bool is_non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }

// Walks TOML text with just enough of its grammar to know whether a byte is
// inside a string or a comment.
class Walker {
 public:
  explicit Walker(std::string_view text) : t_(text) {}

  TomlGuardProblem run() {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '#') skip_comment();
      else if (starts("\"\"\"")) multi_basic();
      else if (starts("'''")) multi_literal();
      else if (c == '"') single_line('"', true);
      else if (c == '\'') single_line('\'', false);
      else if (is_non_ascii(c)) return problem("a non-ASCII character outside a string or comment (TOML allows them only there)");
      else if (c == '[' && depth_ == 0 && at_line_start_) table_header();
      else bracket_and_step(c);
      if (c != '\n' && !is_blank(c)) at_line_start_ = false;
      if (!problem_.message.empty()) return problem_;
    }
    return {};
  }

 private:
  bool starts(std::string_view s) const { return t_.substr(i_, s.size()) == s; }
  static bool is_blank(char c) { return c == ' ' || c == '\t'; }
  static bool is_key_start(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '"' || c == '\'' || c == ']';
  }
  // Arrays and inline tables in values, so that a '[' starting a line inside
  // a multi-line array is not taken for a table header.
  void bracket_and_step(char c) {
    if (c == '[' || c == '{') ++depth_;
    if ((c == ']' || c == '}') && depth_ > 0) --depth_;
    step();
  }
  // toml++ 3.3.0 reads the key of "[", "[[" then blanks by assuming (an
  // assertion in debug builds, an optimizer assumption in release builds)
  // that the next character starts a key: anything else is undefined.
  void table_header() {
    ++i_;
    if (i_ < t_.size() && t_[i_] == '[') ++i_;
    while (i_ < t_.size() && is_blank(t_[i_])) ++i_;
    if (i_ < t_.size() && !is_key_start(t_[i_]))
      problem("a table header must name a table right after its '[', like [nginx] or [[expect]]");
  }
  void step() {
    if (t_[i_] == '\n') {
      ++line_;
      at_line_start_ = true;
    }
    ++i_;
  }
  TomlGuardProblem problem(const std::string& m) {
    problem_ = {line_, m};
    return problem_;
  }
  void skip_comment() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
  }
  void single_line(char quote, bool escapes) {
    ++i_;
    while (i_ < t_.size() && t_[i_] != quote && t_[i_] != '\n') {
      if (escapes && t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;
      ++i_;
    }
    if (i_ < t_.size() && t_[i_] == quote) ++i_;
  }
  void multi_literal() {
    i_ += 3;
    while (i_ < t_.size() && !starts("'''")) step();
    i_ += 3;
  }
  void multi_basic() {
    i_ += 3;
    while (i_ < t_.size() && !starts("\"\"\"")) {
      if (t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n' && t_[i_ + 1] != ' ' && t_[i_ + 1] != '\t' &&
          t_[i_ + 1] != '\r') {
        i_ += 2;  // an escape such as \" or \\ (not a line-ending backslash)
        continue;
      }
      if (t_[i_] == '\\') line_ending_backslash();
      else step();
      if (!problem_.message.empty()) return;
    }
    i_ += 3;
  }
  // After a line-ending backslash toml++ skips whitespace and newlines by
  // testing each character for whitespace: the first non-ASCII one breaks it.
  void line_ending_backslash() {
    ++i_;
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r' || t_[i_] == '\n')) step();
    if (i_ < t_.size() && is_non_ascii(t_[i_]))
      problem("a non-ASCII character right after a line-ending backslash in a \"\"\" string, which the TOML "
              "library of Debian 12 (toml++ 3.3.0) cannot read: put it on the backslash's line, or drop the backslash");
  }

  std::string_view t_;
  std::size_t i_ = 0;
  int line_ = 1;
  int depth_ = 0;             // open arrays and inline tables in values
  bool at_line_start_ = true;  // only blanks since the last line end: a statement may start here
  TomlGuardProblem problem_;
};

}  // namespace

TomlGuardProblem toml_guard(std::string_view text) { return Walker(text).run(); }

}  // namespace models
