#include "cli/sweep/sweep_files.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "common/unique_fd.h"
#include "common/output_file.h"
#include "common/special_file.h"
#include "cli/sweep/sweep_error.h"

namespace cli::sweep {

namespace {

std::string errno_text(const std::string& step) { return step + ": " + std::strerror(errno); }

using Fd = common::UniqueFd;  // closed when it goes out of scope

// "dir/", "dir/.csv", ".csv" or an existing folder.
bool names_folder(const std::string& out, const std::string& stem) {
  if (stem.empty() || stem.back() == '/') return true;
  std::error_code ec;
  return std::filesystem::is_directory(out, ec);
}

}  // namespace

OutputPaths output_paths(const std::string& out) {
  std::string stem = out;
  for (const char* ext : {".csv", ".jsonl", ".json"}) {
    const std::string e = ext;
    if (stem.size() >= e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0) {
      stem.resize(stem.size() - e.size());
      break;
    }
  }
  if (names_folder(out, stem))
    throw SweepError("-o", "'" + out + "'", "names a folder, not a file: give a file name, like " +
                                                common::shown_text(out.empty() || out.back() == '/' ? out : out + "/") +
                                                "results.csv");
  return {stem + ".csv", stem + ".jsonl", stem + ".summary.csv"};
}

void write_atomically(const std::string& path, const std::string& content) {
  try {
    common::write_file_atomically(path, content);
  } catch (const common::OutputError& e) {
    throw SweepError(path, "", e.reason());
  }
}

void write_together(const common::OutputSet& set, const std::string& hint) {
  try {
    set.write();
  } catch (const common::OutputError& e) {
    throw SweepError(e.path(), "", e.reason() + hint);
  }
}

void check_writable(const std::string& path) {
  try {
    common::check_output_path(path);
  } catch (const common::OutputError& e) {
    throw SweepError(path, "", e.reason());
  }
}

void check_writable(const std::string& path, const std::vector<std::string>& inputs) {
  check_writable(path);
  try {
    common::check_not_an_input(path, inputs);
  } catch (const common::OutputError& e) {
    throw SweepError(path, "", e.reason());
  }
}

// A results file is a regular file: a FIFO with no writer blocked the
// open() for ever, and /dev/zero was read up to the limit.
static const char* not_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "is a folder";
  if (S_ISFIFO(mode)) return "is a FIFO";
  if (S_ISCHR(mode)) return "is a character device";
  if (S_ISBLK(mode)) return "is a block device";
  if (S_ISSOCK(mode)) return "is a socket";
  return S_ISREG(mode) ? nullptr : "is not a regular file";
}

[[noreturn]] static void too_large(const std::string& path, std::size_t limit) {
  throw SweepError(path, "", "is larger than " + std::to_string(limit >> 20) +
                                 " MiB, the most clerk reads as results (is it a results file?)");
}

std::string read_limited(const std::string& path, std::size_t limit) {
  int raw = -1;
  do raw = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);  // a FIFO's open does not wait
  while (raw < 0 && errno == EINTR);
  if (raw < 0) throw SweepError(path, "", "cannot read the file: " + std::string(std::strerror(errno)));
  const Fd fd(raw);
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) throw SweepError(path, "", "cannot read the file: " + errno_text("fstat"));
  if (const char* what = not_regular(st.st_mode))
    throw SweepError(path, "", std::string(what) + ", not a results file (.csv or .jsonl)");
  if (static_cast<std::uint64_t>(st.st_size) > limit) too_large(path, limit);
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SweepError(path, "", "cannot read the file: " + errno_text("read"));
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > limit) too_large(path, limit);
    text.append(buf, static_cast<std::size_t>(n));
  }
}

namespace {

int open_append(const std::string& path, int flags) {
  int fd = -1;
  do fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | flags);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw SweepError(path, "", "cannot append to the file: " + std::string(std::strerror(errno)));
  return fd;
}

// Through the link, and only to a special file still: the writer's own open
// (common/special_file.h), its refusal said as the sweep's.
int open_through_link(const std::string& path) {
  try {
    return common::open_special(path, O_APPEND);
  } catch (const common::OutputError& e) {
    throw SweepError(path, "", "cannot append to the file: " + e.reason());
  }
}

}  // namespace

// The file write_atomically has just written (its header), opened to add
// rows. Not through a symbolic link (O_NOFOLLOW: a link planted since would
// send the rows elsewhere), except one that leads to a special file such as
// /dev/null or /dev/stdout: common/output_file.h writes through those, and
// check_writable let it pass, so the header went there too.
LineAppender::LineAppender(const std::string& path) : path_(path) {
  struct stat link {}, to {};
  const bool to_special = lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && stat(path.c_str(), &to) == 0 &&
                          common::is_special(to.st_mode);
  fd_ = to_special ? open_through_link(path) : open_append(path, O_NOFOLLOW);
}

LineAppender::~LineAppender() {
  if (fd_ >= 0) close(fd_);
}

void LineAppender::append(const std::string& line) {
  std::string_view rest = line;
  while (!rest.empty()) {
    const ssize_t n = write(fd_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw SweepError(path_, "", "cannot append to the file: " + errno_text("write"));
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace cli::sweep
