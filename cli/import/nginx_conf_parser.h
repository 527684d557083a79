// nginx.conf as NGINX reads it: words, quoted strings, escapes, comments,
// blocks and `include`, mirroring ngx_conf_file.c (ngx_conf_read_token,
// ngx_conf_parse, ngx_conf_include):
//  - words are separated by space, tab, CR and LF; `;` ends a directive, `{`
//    opens its block, `}` closes the enclosing one;
//  - `#` at the start of a word comments out the rest of the line (inside a
//    word it is an ordinary character);
//  - "..." and '...' quote a word; after the closing quote comes a space,
//    `;`, `{` or `)`, else "unexpected";
//  - a backslash keeps the next character from ending a word or a quote;
//    \" \' \\ become the character, \t \r \n the control, any other pair is
//    kept as written;
//  - `${` inside a word does not open a block (a variable name in braces);
//    at a word's start it does, as in NGINX (its `$` flag is set only after
//    a word's first character);
//  - `include FILE` reads FILE, relative to the main file's directory (NGINX's
//    conf prefix, not the including file's), in place; a name with * ? or [
//    is a glob(3) pattern, read in sorted order, and may match nothing; a
//    plain name that cannot be read is an error;
//  - a file that begins with a UTF-8 byte order mark is refused: NGINX
//    reads the mark as part of the first directive's name and refuses that
//    unknown directive (nothing in ngx_conf_file.c skips one).
// NGINX itself knows which directives take a block; this parser, knowing no
// modules, holds to the core ones (kBlockDirectives in the .cpp) to report a
// missing block, and to a few known to take none (kSimpleDirectives) to
// report a missing `;`; any other directive is read as written, block or
// not (another module's, like nginx-rtmp's `rtmp { ... }`). Unlike NGINX it refuses an include loop (NGINX recurses until
// it runs out of file descriptors), blocks nested deeper than kMaxDepth, and
// more than kMaxIncludedFiles files read by includes (globs that include
// each other again and again grow exponentially without a loop).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nginx_conf {

struct Directive {
  std::string name;
  std::vector<std::string> args;
  std::string file;      // as the include named it (the main file: as given)
  std::size_t line = 0;  // of the directive's name
  bool block = false;    // it had { ... }
  std::vector<Directive> children;
};

// A syntax error: where, and the token that was not expected there. what()
// is for a terminal: the file's name and the words quoted in the message
// shown escaped (common/shown_text.h); file() and token() as they are.
class SyntaxError : public std::runtime_error {
 public:
  SyntaxError(std::string file, std::size_t line, std::string token, const std::string& message);
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }  // 0: the file itself (it cannot be read)
  const std::string& token() const { return token_; }

 private:
  std::string file_;
  std::size_t line_;
  std::string token_;
};

// A file an include brings in: its name in messages, a key that is the same
// for the same file however it is named (for loops), and its text.
struct Source {
  std::string name;
  std::string key;
  std::string text;
};

// Finds what `include PATTERN` names: the files in order (none for a glob
// that matched nothing); throws SyntaxError (at `at`) for a file it cannot read.
using IncludeResolver = std::function<std::vector<Source>(const std::string& pattern, const Directive& at)>;

constexpr std::size_t kMaxDepth = 64;  // blocks and includes nested
constexpr std::size_t kMaxIncludedFiles = 4096;  // a site per file: thousands of virtual hosts
constexpr std::uint64_t kMaxConfFileBytes = 16u << 20;  // a configuration file larger than this is a mistake

// Whether `name` is a block directive this parser knows (NGINX's core
// modules', or a *_block); a block of another name is another module's.
bool known_block(const std::string& name);

// The directives of `main` (includes expanded in place, `include` itself not kept).
std::vector<Directive> parse(const Source& main, const IncludeResolver& includes);

// A file on disk, with includes from the file system relative to its folder.
// `read`, when given, gets every file read, as opened: the main file and each
// include (an empty one too), in order, repeats included.
std::vector<Directive> parse_file(const std::string& path, std::vector<std::string>* read = nullptr);

}  // namespace nginx_conf
