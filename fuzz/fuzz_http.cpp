// libFuzzer target: clerk-serve's request head parser, its target-to-path
// rule and its safe open (testbed/serve: http_request.h, file_resolver.h),
// on the bytes a client could send.
//
// Contract on every input, not only "no crash":
//   - parse_request_head never throws; a complete head consumed at least one
//     byte and no more than it was given; a bad one answers 400 or 431; a
//     head the size of the limit or more is never "need more".
//   - target_to_relative_path gives nothing or a path with no empty, "." or
//     ".." segment, no leading slash and no NUL.
//   - resolve_file, over a small tree holding a symbolic link out of the
//     root, a link to a directory above it and a FIFO, answers 200 only with
//     a regular file whose real path is inside the root; the openat2 path and
//     the per-component walk give the same status.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "common/temp_dir.h"
#include "common/unique_fd.h"
#include "fuzz/contract.h"
#include "file_resolver.h"
#include "http_request.h"

namespace {

namespace fs = std::filesystem;
using clerk::serve::RequestHead;

// The root: files, a directory, and every way out that resolve_file refuses.
class ServeRoot {
 public:
  ServeRoot() : base_((fs::temp_directory_path() / "clerk-fuzz-http-").string()), root_(fs::path(base_.path()) / "root") {
    fs::create_directories(root_ / "dir" / "sub");
    write(root_ / "a.txt");
    write(root_ / "dir" / "b.txt");
    write(root_ / "dir" / "sub" / "c 1.txt");
    write(fs::path(base_.path()) / "outside.txt");
    fs::create_symlink(fs::path(base_.path()) / "outside.txt", root_ / "out");
    fs::create_symlink("../outside.txt", root_ / "dir" / "up");
    fs::create_directory_symlink("..", root_ / "dir" / "parent");
    ::mkfifo((root_ / "fifo").c_str(), 0600);
    fd_.reset(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!fd_.valid()) fuzz::breach("cannot open the root");
    char real[PATH_MAX];
    if (!::realpath(root_.c_str(), real)) fuzz::breach("realpath of the root failed");
    real_root_ = std::string(real) + "/";
  }
  int fd() const { return fd_.get(); }
  const std::string& real_root() const { return real_root_; }

 private:
  static void write(const fs::path& p) {
    common::UniqueFd fd(::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600));
    if (!fd.valid() || ::write(fd.get(), "x", 1) != 1) fuzz::breach("cannot write " + p.string());
  }
  common::TempDir base_;  // removed with everything in it at exit
  fs::path root_;
  common::UniqueFd fd_;
  std::string real_root_;
};

ServeRoot& serve_root() {
  static ServeRoot root;  // one per process; removed at exit
  return root;
}

void check_head(const RequestHead& h, std::size_t size, std::size_t limit) {
  using State = RequestHead::State;
  if (h.state == State::complete && (h.consumed == 0 || h.consumed > size))
    fuzz::breach(fmt::format("complete head consumed {} of {} bytes", h.consumed, size));
  if (h.state == State::bad && h.error_status != 400 && h.error_status != 431)
    fuzz::breach(fmt::format("bad head answered {}", h.error_status));
  if (h.state == State::need_more && size >= limit) fuzz::breach(fmt::format("{} bytes, limit {}: still need more", size, limit));
}

void check_relative(const std::string& path) {
  if (path.find('\0') != std::string::npos) fuzz::breach("a path with a NUL");
  if (!path.empty() && path.front() == '/') fuzz::breach("a path with a leading slash: " + path);
  std::string_view rest = path;
  while (!path.empty()) {
    const std::size_t slash = rest.find('/');
    const std::string_view seg = rest.substr(0, slash);
    if (seg.empty() || seg == "." || seg == "..") fuzz::breach("a path with segment '" + std::string(seg) + "': " + path);
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
}

void check_resolved(const std::string& relative) {
  const ServeRoot& root = serve_root();
  const clerk::serve::ResolvedFile a = clerk::serve::resolve_file(root.fd(), relative, false);
  const clerk::serve::ResolvedFile b = clerk::serve::resolve_file(root.fd(), relative, true);
  if (a.status != b.status) fuzz::breach(fmt::format("'{}': openat2 says {}, the walk {}", relative, a.status, b.status));
  if (a.status != 200) return;
  char real[PATH_MAX];
  const std::string link = fmt::format("/proc/self/fd/{}", a.fd.get());
  const ssize_t n = ::readlink(link.c_str(), real, sizeof real - 1);
  if (n <= 0) fuzz::breach("cannot read " + link);
  const std::string opened(real, static_cast<std::size_t>(n));
  if (opened.rfind(root.real_root(), 0) != 0) fuzz::breach(fmt::format("'{}' opened {}, outside the root", relative, opened));
  struct stat st;
  if (::fstat(a.fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) fuzz::breach("'" + relative + "' answered 200 with no regular file");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The first byte picks the header limit (clerk-serve's --header-limit):
  // 64 bytes to 64 KiB and past Beast's per-field limit.
  if (size == 0) return 0;
  const std::size_t limit = std::size_t{64} << (data[0] % 12);
  const char* text = reinterpret_cast<const char*>(data + 1);
  const RequestHead head = clerk::serve::parse_request_head(text, size - 1, limit);
  check_head(head, size - 1, limit);
  if (head.state != RequestHead::State::complete) return 0;
  const std::optional<std::string> relative = clerk::serve::target_to_relative_path(head.target);
  if (!relative) return 0;
  check_relative(*relative);
  check_resolved(*relative);
  return 0;
}
