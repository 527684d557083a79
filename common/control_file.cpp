#include "common/control_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace common {

std::string write_control_file(const std::string& path, std::string_view value) {
  int fd = -1;
  do fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return fmt::format("cannot open {}: {}", path, std::strerror(errno));
  ssize_t n = -1;
  do n = ::write(fd, value.data(), value.size());
  while (n < 0 && errno == EINTR);
  const int write_errno = errno;
  ::close(fd);
  if (n < 0) return fmt::format("cannot write '{}' to {}: {}", value, path, std::strerror(write_errno));
  if (static_cast<std::size_t>(n) != value.size()) return fmt::format("cannot write '{}' to {}: a short write", value, path);
  return {};
}

}  // namespace common
