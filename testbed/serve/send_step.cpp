#include "send_step.h"

#include <sys/sendfile.h>
#include <sys/socket.h>

#include <cerrno>

namespace clerk::serve {

StepResult send_step(int socket_fd, std::string_view head, int file_fd, off_t file_offset, std::size_t chunk) {
  StepResult result;
  while (result.head_sent < head.size()) {
    // MSG_MORE: let the head leave in the same segment as the file's first bytes.
    const int flags = MSG_NOSIGNAL | MSG_DONTWAIT | (chunk > 0 ? MSG_MORE : 0);
    const ssize_t n = ::send(socket_fd, head.data() + result.head_sent, head.size() - result.head_sent, flags);
    if (n < 0) {
      if (errno == EINTR) continue;
      result.error = errno == EWOULDBLOCK ? EAGAIN : errno;
      return result;
    }
    result.head_sent += static_cast<std::size_t>(n);
  }
  if (chunk == 0) return result;
  off_t offset = file_offset;
  for (;;) {
    const ssize_t n = ::sendfile(socket_fd, file_fd, &offset, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      result.error = errno == EWOULDBLOCK ? EAGAIN : errno;
    } else if (n == 0) {
      result.error = EIO;  // the file shrank under us: give up on this response
    } else {
      result.file_sent = static_cast<std::size_t>(n);
    }
    return result;
  }
}

}  // namespace clerk::serve
