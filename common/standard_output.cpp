#include "common/standard_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace common {

int flush_standard_output(int status, std::string_view failure) {
  errno = 0;  // before the flushes: the first to fail (std::cout's write) says why
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed) return status;
  const int err = errno;
  std::cerr << failure << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
  return status == 0 ? 2 : status;
}

}  // namespace common
