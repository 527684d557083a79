#include "models/scenario/toml_guard.h"

#include <string>
#include <vector>

namespace models {

namespace {

bool is_non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }

// toml++ 3.3.0 makes a table for each part of a dotted key or table header
// and recurses once per level (50,000 parts overflowed the stack: SIGSEGV);
// it caps only nested values (256). Scenario keys have at most 4 parts, so
// 16 per key bounds the depth at 16 + 256 x 16 levels, which it handles.
constexpr int kMaxKeyParts = 16;

enum class Rewrite { kComment, kEscape, kRefuse };

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
      else if (c == '[' && open_.empty() && at_line_start_) table_header();
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
  // toml++ 3.3.0 also asserts that a '}' in an array is no value: refused.
  void bracket_and_step(char c) {
    if (c == '}' && !open_.empty() && open_.back() == '[')
      problem("a '}' inside an array, which has no inline table open to close");
    if (c == ']' && open_.empty()) in_key_ = false;  // the end of a table header
    if (c == '[' || c == '{') open_.push_back(c);
    if ((c == ']' || c == '}') && !open_.empty()) open_.pop_back();
    count_key_part(c);
    step();
  }
  // Keys start a line (outside arrays and inline tables), a table header, and
  // follow an inline table's '{' or ','; '=' ends them.
  void count_key_part(char c) {
    if (c == '=') in_key_ = false;
    if (c == '{' || (c == ',' && !open_.empty() && open_.back() == '{')) start_key();
    if (c == '.' && in_key_ && ++key_dots_ >= kMaxKeyParts)
      problem("a key or table name of more than 16 dotted parts (scenario keys have at most 4)");
  }
  void start_key() {
    in_key_ = true;
    key_dots_ = 0;
  }
  // toml++ 3.3.0 reads the key of "[", "[[" then blanks by assuming (an
  // assertion in debug builds, an optimizer assumption in release builds)
  // that the next character starts a key: anything else is undefined.
  void table_header() {
    start_key();
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
      if (open_.empty()) start_key();
    }
    ++i_;
  }
  TomlGuardProblem problem(const std::string& m) {
    problem_ = {line_, m, {}};
    return problem_;
  }
  // U+00A1 to U+0499 (2-byte UTF-8) at `i`, or 0: the code points that
  // toml++ 3.3.0's is_non_ascii_horizontal_whitespace() reaches
  // TOML_UNREACHABLE on, wherever it tests one for whitespace.
  unsigned unsafe_at(std::size_t i) const {
    if (i + 1 >= t_.size()) return 0;
    const auto lead = static_cast<unsigned char>(t_[i]), cont = static_cast<unsigned char>(t_[i + 1]);
    if (lead < 0xC2 || lead > 0xDF || (cont & 0xC0) != 0x80) return 0;
    const unsigned cp = ((lead & 0x1Fu) << 6) | (cont & 0x3Fu);
    return cp >= 0xA1 && cp <= 0x499 ? cp : 0;
  }
  // In a comment or a "..." string such a character is rewritten (to '?' or
  // a \uXXXX escape) so toml++ never sees one; in a '...' string it is refused.
  bool rewrite_unsafe(Rewrite how) {
    const unsigned cp = unsafe_at(i_);
    if (!cp) return false;
    if (how == Rewrite::kRefuse)
      problem("a character from U+00A1 to U+0499 (like \u00e9) in a '...' string, which the TOML library of Debian 12 "
              "(toml++ 3.3.0) cannot read: write the string in double quotes");
    rewrites_.push_back({i_, how == Rewrite::kComment ? std::string("?") : escape(cp)});
    i_ += 2;
    return true;
  }
  static std::string escape(unsigned cp) {
    static const char* hex = "0123456789ABCDEF";
    std::string e = "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) e += hex[(cp >> shift) & 0xF];
    return e;
  }
  bool backslash_before_non_ascii() {
    if (t_[i_] != '\\' || i_ + 1 >= t_.size() || !is_non_ascii(t_[i_ + 1])) return false;
    problem("a backslash before a non-ASCII character, which is no TOML escape");
    return true;
  }
  void skip_comment() {
    while (i_ < t_.size() && t_[i_] != '\n')
      if (!rewrite_unsafe(Rewrite::kComment)) ++i_;
  }
  void single_line(char quote, bool escapes) {
    ++i_;
    while (i_ < t_.size() && t_[i_] != quote && t_[i_] != '\n' && problem_.message.empty()) {
      if (rewrite_unsafe(escapes ? Rewrite::kEscape : Rewrite::kRefuse)) continue;
      if (escapes && backslash_before_non_ascii()) return;
      if (escapes && t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;
      ++i_;
    }
    if (i_ < t_.size() && t_[i_] == quote) ++i_;
  }
  void multi_literal() {
    i_ += 3;
    while (i_ < t_.size() && !starts("'''") && problem_.message.empty())
      if (!rewrite_unsafe(Rewrite::kRefuse)) step();
    i_ += 3;
  }
  void multi_basic() {
    i_ += 3;
    while (i_ < t_.size() && !starts("\"\"\"")) {
      if (rewrite_unsafe(Rewrite::kEscape)) continue;
      if (backslash_before_non_ascii()) return;
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
  std::string open_;          // the '[' and '{' of arrays and inline tables open in values
  bool at_line_start_ = true;  // only blanks since the last line end: a statement may start here
  bool in_key_ = true;         // in a key or a table header's name (see count_key_part)
  int key_dots_ = 0;           // dots in it so far
  TomlGuardProblem problem_;

 public:
  struct Replacement {
    std::size_t at;  // two bytes there
    std::string text;
  };
  std::vector<Replacement> rewrites_;
};

}  // namespace

TomlGuardProblem toml_guard(std::string_view text) {
  Walker w(text);
  TomlGuardProblem p = w.run();
  if (p.line) return p;
  std::size_t from = 0;
  for (const auto& r : w.rewrites_) {
    p.safe_text.append(text.substr(from, r.at - from));
    p.safe_text += r.text;
    from = r.at + 2;
  }
  p.safe_text.append(text.substr(from));
  return p;
}

}  // namespace models
