// Writing result files: to a temporary name first, renamed into place only
// when complete, so a failed run never leaves half a file behind.
#pragma once
#include <string>

namespace cli {

bool write_file_atomically(const std::string& path, const std::string& content, std::string& error);
std::string default_scenarios_dir();

}  // namespace cli
