#include "file_resolver.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace clerk::serve {

// O_NONBLOCK: opening a FIFO someone left under the root must not hang the
// event loop; fstat below refuses it anyway.
static constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

static int status_for_errno(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
    case ENAMETOOLONG:
      return 404;
    case ELOOP:   // a symbolic link (nginx's disable_symlinks answers 403 too)
    case EXDEV:   // would leave the root
    case EACCES:
    case EPERM:
      return 403;
    default:
      return 500;
  }
}

// Kernel 5.6+: the kernel itself refuses symlinks and escapes, atomically.
static int open_with_openat2(int root_fd, const std::string& relative) {
  open_how how{};
  how.flags = kOpenFlags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  int fd;
  do {
    fd = static_cast<int>(::syscall(SYS_openat2, root_fd, relative.c_str(), &how, sizeof how));
  } while (fd < 0 && (errno == EINTR || errno == EAGAIN));
  return fd;
}

static bool is_symlink(int at, const std::string& name) {
  struct stat st;
  return ::fstatat(at, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

// Older kernels: walk one component at a time with O_NOFOLLOW, checking each
// directory. The path has no ".." (target_to_relative_path refused it).
static int open_by_walking(int root_fd, const std::string& relative) {
  UniqueFd dir;
  int at = root_fd;
  std::size_t start = 0;
  for (;;) {
    const auto slash = relative.find('/', start);
    const std::string name = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (slash == std::string::npos) return ::openat(at, name.c_str(), kOpenFlags | O_NOFOLLOW);
    UniqueFd next(::openat(at, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      // O_DIRECTORY fails with ENOTDIR on a symbolic link before O_NOFOLLOW
      // is looked at: a link is ELOOP (403), as openat2's RESOLVE_NO_SYMLINKS
      // says, and a regular file in the middle of the path stays ENOTDIR (404).
      if (errno == ENOTDIR && is_symlink(at, name)) errno = ELOOP;
      return -1;
    }
    struct stat st;
    if (::fstat(next.get(), &st) != 0) return -1;
    if (S_ISLNK(st.st_mode)) {
      errno = ELOOP;
      return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      return -1;
    }
    dir = std::move(next);
    at = dir.get();
    start = slash + 1;
  }
}

ResolvedFile resolve_file(int root_fd, const std::string& relative, bool force_fallback) {
  ResolvedFile result;
  // The root itself is a directory: nginx answers 403 without an index file.
  if (relative.empty()) {
    result.status = 403;
    return result;
  }
  int fd = -1;
  if (!force_fallback) {
    fd = open_with_openat2(root_fd, relative);
    if (fd < 0 && errno == ENOSYS) force_fallback = true;
  }
  if (force_fallback) fd = open_by_walking(root_fd, relative);
  if (fd < 0) {
    result.status = status_for_errno(errno);
    return result;
  }
  result.fd.reset(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    result.fd.reset();
    return result;
  }
  if (!S_ISREG(st.st_mode)) {
    result.fd.reset();
    result.status = 403;
    return result;
  }
  result.status = 200;
  result.size = st.st_size;
  result.dev = st.st_dev;
  result.ino = st.st_ino;
  return result;
}

}  // namespace clerk::serve
