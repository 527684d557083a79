// Reading a small text file whole (/proc and /sys files, logs): "" when it
// cannot be read.
#pragma once
#include <string>

namespace common {

std::string read_text(const std::string& path);
// The same, for a file that must be there: throws std::runtime_error naming the path.
std::string read_text_or_throw(const std::string& path);

}  // namespace common
