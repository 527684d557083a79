#include "cli/import/nginx_conf_parser.h"

#include <fcntl.h>
#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/input_file.h"
#include "common/shown_text.h"

namespace nginx_conf {

SyntaxError::SyntaxError(std::string file, std::size_t line, std::string token, const std::string& message)
    : std::runtime_error(common::shown_text(file + (line ? ":" + std::to_string(line) : std::string()) + ": " + message)),
      file_(std::move(file)),
      line_(line),
      token_(std::move(token)) {}

namespace {

// The directives of NGINX's own modules (and Debian's) that take a block;
// any name ending in _block does too (the Lua module's *_by_lua_block).
constexpr std::array<std::string_view, 15> kBlockDirectives = {
    "events", "http", "server", "location", "upstream", "if", "limit_except", "types", "map",
    "geo", "split_clients", "mail", "stream", "charset_map", "match"};

// Directives known to take no block: include, those clerk import maps, and
// the variable setters that look like block directives but are not
// (perl_set is NGX_CONF_TAKE2, js_set NGX_CONF_TAKE23).
constexpr std::array<std::string_view, 27> kSimpleDirectives = {
    "include", "perl_set", "js_set", "worker_processes", "thread_pool", "accept_mutex", "accept_mutex_delay",
    "multi_accept", "epoll_events", "worker_aio_requests", "use", "listen", "root", "alias", "sendfile", "sendfile_max_chunk",
    "keepalive_requests", "aio", "aio_write", "directio", "directio_alignment", "output_buffers",
    "open_file_cache", "open_file_cache_valid", "open_file_cache_min_uses", "open_file_cache_errors", "index"};

bool is_one_of(std::string_view name, const auto& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether `name` inside `parent` takes a block: `server` does in http, mail
// and stream, but is one upstream server inside `upstream`.
bool takes_block(const std::string& name, const std::string& parent) {
  if (name == "server" && parent == "upstream") return false;
  return known_block(name);
}

// Whether `name` inside `parent` is known to take no block.
bool takes_no_block(const std::string& name, const std::string& parent) {
  return (name == "server" && parent == "upstream") || is_one_of(name, kSimpleDirectives);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// A word's bytes as NGINX stores them: \" \' \\ lose the backslash, \t \r \n
// become controls, any other backslash stays.
std::string unescape(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      const char next = raw[i + 1];
      if (next == '"' || next == '\'' || next == '\\') {
        out += next;
        ++i;
        continue;
      }
      if (next == 't' || next == 'r' || next == 'n') {
        out += next == 't' ? '\t' : next == 'r' ? '\r' : '\n';
        ++i;
        continue;
      }
    }
    out += raw[i];
  }
  return out;
}

// How a statement ended.
enum class End { kSemicolon, kBlockStart, kBlockEnd, kEof };

struct Statement {
  std::vector<std::string> words;
  std::size_t line = 0;
  End end = End::kEof;
};

// ngx_conf_read_token: one statement's words at a time.
class Lexer {
 public:
  Lexer(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  Statement next() {
    Statement st;
    st.line = line_;
    State s;
    for (;;) {
      if (pos_ >= text_.size()) return at_end(st, s);
      const char ch = text_[pos_++];
      if (ch == '\n') {
        ++line_;
        s.comment = false;
      }
      if (s.comment) continue;
      if (s.escaped) {
        s.escaped = false;
        continue;
      }
      if (s.need_space) {
        if (is_space(ch)) {
          s.last_space = true;
          s.need_space = false;
          continue;
        }
        if (ch == ';') return finish(st, End::kSemicolon);
        if (ch == '{') return finish(st, End::kBlockStart);
        if (ch != ')') fail(line_, std::string(1, ch), "unexpected \"" + std::string(1, ch) + "\" after a quoted string");
        s.last_space = true;
        s.need_space = false;
      }
      if (s.last_space) {
        if (is_space(ch)) continue;
        s.start = pos_ - 1;
        s.start_line = line_;
        if (st.words.empty()) st.line = line_;
        switch (ch) {
          case ';':
          case '{':
            if (st.words.empty()) fail(line_, std::string(1, ch), "unexpected \"" + std::string(1, ch) + "\"");
            return finish(st, ch == ';' ? End::kSemicolon : End::kBlockStart);
          case '}':
            if (!st.words.empty())
              fail(line_, "}", "unexpected \"}\": \"" + st.words.front() + "\" is not terminated by \";\"");
            return finish(st, End::kBlockEnd);
          case '#':
            s.comment = true;
            continue;
          case '\\':
            s.escaped = true;
            s.last_space = false;
            continue;
          case '"':
          case '\'':
            ++s.start;
            (ch == '"' ? s.d_quoted : s.s_quoted) = true;
            s.last_space = false;
            continue;
          default:
            s.last_space = false;
        }
        continue;
      }
      if (ch == '{' && s.variable) continue;
      s.variable = false;
      if (ch == '\\') {
        s.escaped = true;
        continue;
      }
      if (ch == '$') {
        s.variable = true;
        continue;
      }
      bool found = false;
      if (s.d_quoted || s.s_quoted) {
        if (ch == (s.d_quoted ? '"' : '\'')) {
          s.d_quoted = s.s_quoted = false;
          s.need_space = true;
          found = true;
        }
      } else if (is_space(ch) || ch == ';' || ch == '{') {
        s.last_space = true;
        found = true;
      }
      if (!found) continue;
      st.words.push_back(unescape(text_.substr(s.start, pos_ - 1 - s.start)));
      if (ch == ';') return finish(st, End::kSemicolon);
      if (ch == '{') return finish(st, End::kBlockStart);
    }
  }

  std::size_t line() const { return line_; }

  [[noreturn]] void fail(std::size_t line, const std::string& token, const std::string& message) const {
    throw SyntaxError(file_, line, token, message);
  }

 private:
  struct State {
    bool need_space = false, last_space = true, comment = false, variable = false;
    bool escaped = false, s_quoted = false, d_quoted = false;
    std::size_t start = 0, start_line = 0;
  };

  static Statement finish(Statement& st, End end) {
    st.end = end;
    return std::move(st);
  }

  Statement at_end(Statement& st, const State& s) const {
    if (s.d_quoted || s.s_quoted)
      fail(s.start_line, s.d_quoted ? "\"" : "'",
           std::string("unterminated quoted string: the ") + (s.d_quoted ? "\"" : "'") + " opened here is never closed");
    if (!st.words.empty() || !s.last_space)
      fail(line_, "end of file",
           "unexpected end of file, expecting \";\" or \"}\"" +
               (st.words.empty() ? std::string() : " after \"" + st.words.front() + "\""));
    return finish(st, End::kEof);
  }

  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

// A UTF-8 byte order mark at a file's start (Windows editors write one).
// NGINX skips none: ngx_conf_read_token reads the three bytes as the start of
// the file's first word, so that word, the first directive's name, is one
// no module has, and ngx_conf_handler refuses it ("unknown directive"; a
// mark before a blank or a comment is a word of its own, refused the same
// way). No file beginning with one passes `nginx -t`: refused here too, saying so.
void refuse_byte_order_mark(const Source& src) {
  constexpr std::string_view kBom = "\xef\xbb\xbf";
  if (std::string_view(src.text).starts_with(kBom))
    throw SyntaxError(src.name, 1, std::string(kBom),
                      "the file begins with a UTF-8 byte order mark (EF BB BF), which NGINX reads as part of the "
                      "first directive's name (\"unknown directive\"): save the file without it");
}

// ngx_conf_parse over one file, includes read in place.
class Parser {
 public:
  explicit Parser(const IncludeResolver& includes) : includes_(includes) {}

  void parse_source(const Source& src, std::vector<Directive>& into) {
    if (std::find(open_.begin(), open_.end(), src.key) != open_.end())
      throw SyntaxError(src.name, 1, "include", "include loop: " + loop_text(src.key));
    refuse_byte_order_mark(src);
    open_.push_back(src.key);
    names_.push_back(src.name);
    Lexer lexer(src.text, src.name);
    parse_file_body(lexer, src.name, into, "", 0);
    open_.pop_back();
    names_.pop_back();
  }

 private:
  std::string loop_text(const std::string& key) const {
    std::string out;
    const auto first = std::find(open_.begin(), open_.end(), key) - open_.begin();
    for (std::size_t i = static_cast<std::size_t>(first); i < names_.size(); ++i) out += names_[i] + " -> ";
    return out + names_[static_cast<std::size_t>(first)];
  }

  // A block's directives, up to its `}`.
  void parse_block(Lexer& lexer, const std::string& file, Directive& block, std::size_t depth) {
    for (;;) {
      Statement st = lexer.next();
      if (st.end == End::kBlockEnd) return;
      if (st.end == End::kEof)
        lexer.fail(lexer.line(), "end of file",
                   "unexpected end of file, expecting \"}\" to close \"" + block.name + "\" of line " +
                       std::to_string(block.line));
      read_directive(lexer, file, std::move(st), block.children, block.name, depth);
    }
  }

  // A whole file's directives, read into `parent`'s block ("" at the top):
  // it ends at its end of file, and a `}` in it closes nothing.
  void parse_file_body(Lexer& lexer, const std::string& file, std::vector<Directive>& into,
                       const std::string& parent, std::size_t depth) {
    for (;;) {
      Statement st = lexer.next();
      if (st.end == End::kBlockEnd) lexer.fail(st.line, "}", "unexpected \"}\"");
      if (st.end == End::kEof) return;
      read_directive(lexer, file, std::move(st), into, parent, depth);
    }
  }

  // One statement as a directive: an include read in place, a block read whole.
  void read_directive(Lexer& lexer, const std::string& file, Statement st, std::vector<Directive>& into,
                      const std::string& parent, std::size_t depth) {
    Directive d;
    d.name = st.words.front();
    d.args.assign(st.words.begin() + 1, st.words.end());
    d.file = file;
    d.line = st.line;
    d.block = st.end == End::kBlockStart;
    check_shape(lexer, d, parent);
    if (d.name == "include" && !d.block) return include(d, into, parent, depth);
    if (d.block) {
      if (depth + 1 >= kMaxDepth) lexer.fail(d.line, "{", "blocks nested deeper than " + std::to_string(kMaxDepth));
      parse_block(lexer, file, d, depth + 1);
    }
    into.push_back(std::move(d));
  }

  // ngx_conf_handler's checks that need no module: a block where a `;` was
  // due, a `;` where a block was due, include's one argument; for the
  // directives whose shape is known here only. Another module's directive
  // (nginx-rtmp's `rtmp { ... }`) is taken as written.
  static void check_shape(const Lexer& lexer, const Directive& d, const std::string& parent) {
    const bool block = takes_block(d.name, parent);
    if (d.block && takes_no_block(d.name, parent)) {
      // The word the "{" follows is the token, shown in the message too: an
      // empty one (`root "" {`) would otherwise be invisible (fuzz_import).
      const std::string& last = d.args.empty() ? d.name : d.args.back();
      lexer.fail(d.line, last,
                 "directive \"" + d.name + "\" is not terminated by \";\" (it takes no block): \"{\" follows \"" +
                     last + "\"");
    }
    if (!d.block && block) lexer.fail(d.line, d.name, "directive \"" + d.name + "\" has no opening \"{\"");
    if (d.name == "include" && d.args.size() != 1)
      lexer.fail(d.line, "include", "invalid number of arguments in \"include\" directive (it takes one file or pattern)");
  }

  // An included file's directives are read in the includer's block (its `}`
  // does not close that block: ngx_conf_parse of a file refuses it).
  void include(const Directive& at, std::vector<Directive>& into, const std::string& parent, std::size_t depth) {
    if (open_.size() >= kMaxDepth)
      throw SyntaxError(at.file, at.line, "include", "includes nested deeper than " + std::to_string(kMaxDepth));
    for (const Source& src : includes_(at.args.front(), at)) {
      if (++files_read_ > kMaxIncludedFiles)
        throw SyntaxError(at.file, at.line, at.args.front(),
                          "more than " + std::to_string(kMaxIncludedFiles) + " files included in all");
      if (std::find(open_.begin(), open_.end(), src.key) != open_.end())
        throw SyntaxError(at.file, at.line, at.args.front(), "include loop: " + loop_text(src.key) + " (again by " + src.name + ")");
      refuse_byte_order_mark(src);
      open_.push_back(src.key);
      names_.push_back(src.name);
      Lexer lexer(src.text, src.name);
      parse_file_body(lexer, src.name, into, parent, depth);
      open_.pop_back();
      names_.pop_back();
    }
  }

  const IncludeResolver& includes_;
  std::size_t files_read_ = 0;      // includes read, counting repeats
  std::vector<std::string> open_;   // keys of the files being read, outermost first
  std::vector<std::string> names_;  // and their names
};

std::string read_text(const std::string& path, const std::string& file, std::size_t line, const std::string& token) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec == std::errc::no_such_file_or_directory || (!ec && !fs::exists(st)))
    throw SyntaxError(file, line, token, "cannot open \"" + path + "\": no such file");
  // Another reason, a symbolic link loop (ELOOP) among them: the system's.
  if (ec) throw SyntaxError(file, line, token, "cannot open \"" + path + "\": " + common::open_failure_text(ec.value()));
  // As every input (common/input_file.h): opened O_NONBLOCK, a FIFO, a
  // device or a file that blocks when read (tracefs's trace_pipe) is refused
  // at once; read by bytes whatever stat() says (procfs files report size 0,
  // and /proc/self/pagemap has no end worth reading) until more than the limit.
  try {
    return common::read_input_file(path, kMaxConfFileBytes);
  } catch (const common::InputFileError& e) {
    throw SyntaxError(file, line, token, "\"" + path + "\" " + e.what());
  }
}

std::string key_of(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path canon = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : canon.string();
}

// ngx_conf_include over the file system: `prefix` is the main file's folder.
std::vector<Source> files_for(const std::string& prefix, const std::string& pattern, const Directive& at) {
  const std::string full = !pattern.empty() && pattern.front() == '/' ? pattern : prefix + pattern;
  if (full.find_first_of("*?[") == std::string::npos)
    return {Source{full, key_of(full), read_text(full, at.file, at.line, pattern)}};
  glob_t g{};
  const int rc = glob(full.c_str(), 0, nullptr, &g);
  struct Free {
    glob_t& g;
    ~Free() { globfree(&g); }
  } free_glob{g};
  if (rc == GLOB_NOMATCH) return {};
  if (rc != 0) throw SyntaxError(at.file, at.line, pattern, "glob \"" + full + "\" failed");
  // Counted before any is read (the parser counts all includes again).
  if (g.gl_pathc > kMaxIncludedFiles)
    throw SyntaxError(at.file, at.line, pattern,
                      "more than " + std::to_string(kMaxIncludedFiles) + " files included in all (" +
                          std::to_string(g.gl_pathc) + " match \"" + full + "\")");
  std::vector<Source> out;
  for (std::size_t i = 0; i < g.gl_pathc; ++i) {
    const std::string name = g.gl_pathv[i];
    out.push_back(Source{name, key_of(name), read_text(name, at.file, at.line, pattern)});
  }
  return out;
}

}  // namespace

bool known_block(const std::string& name) {
  if (name.size() > 6 && name.compare(name.size() - 6, 6, "_block") == 0) return true;
  return is_one_of(name, kBlockDirectives);
}

std::vector<Directive> parse(const Source& main, const IncludeResolver& includes) {
  std::vector<Directive> out;
  Parser(includes).parse_source(main, out);
  return out;
}

std::vector<Directive> parse_file(const std::string& path, std::vector<std::string>* read) {
  const std::string text = read_text(path, path, 0, path);
  if (read) read->push_back(path);
  std::string prefix = std::filesystem::path(path).parent_path().string();
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  const IncludeResolver includes = [&prefix, read](const std::string& pattern, const Directive& at) {
    std::vector<Source> files = files_for(prefix, pattern, at);
    if (read)
      for (const Source& f : files) read->push_back(f.name);
    return files;
  };
  return parse(Source{path, key_of(path), text}, includes);
}

}  // namespace nginx_conf
