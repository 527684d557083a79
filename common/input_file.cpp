#include "common/input_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace common {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1u << 30) && bytes % (1u << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string open_failure_text(int err) {
  if (err == ELOOP) return std::string("a symbolic link loop (") + std::strerror(err) + ")";
  return std::strerror(err);
}

UniqueFd open_input_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before we can refuse it.
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputFileError("cannot read the file: " + open_failure_text(errno));
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputFileError("is " + kind_of(st.st_mode) + ", not a regular file");
  return fd;
}

std::size_t read_input_some(int fd, char* into, std::size_t size) {
  for (;;) {
    const ssize_t n = read(fd, into, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EINTR) continue;
    // A regular file's data never says EAGAIN; a pseudo-file that waits for
    // data to appear (tracefs's trace_pipe) does, under O_NONBLOCK.
    if (errno == EAGAIN || errno == EWOULDBLOCK)
      throw InputFileError("blocks when read (a pipe-like file that waits for data, not a file's text)");
    throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
  }
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes) {
  const UniqueFd fd = open_input_file(path);
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
  const std::string too_large = "is larger than " + size_text(max_bytes) + ", the most clerk reads from such a file";
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) throw InputFileError(too_large);
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  for (;;) {
    // The file may have grown since fstat, and procfs files say size 0:
    // read on by whole 4 KiB blocks (a multiple of 8, as /proc/self/pagemap wants).
    if (got == text.size()) {
      if (text.size() > max_bytes) throw InputFileError(too_large);
      text.resize(text.size() + 4096);
    }
    const std::size_t n = read_input_some(fd.get(), text.data() + got, text.size() - got);
    if (n == 0) break;
    got += n;
  }
  text.resize(got);
  if (text.size() > max_bytes) throw InputFileError(too_large);
  return text;
}

}  // namespace common
