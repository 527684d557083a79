// Reading a small text file whole (/proc and /sys files, logs): "" when it
// cannot be read.
#pragma once
#include <string>

namespace common {

std::string read_text(const std::string& path);

}  // namespace common
