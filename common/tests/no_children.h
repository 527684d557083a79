// For the tests of anything that starts children (common/, realrun,
// calibrate): true when this process has no child left, zombie or not.
#pragma once
#include <sys/wait.h>

#include <cerrno>

namespace common::test {

inline bool no_children() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

}  // namespace common::test
