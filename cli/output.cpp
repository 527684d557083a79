#include "cli/output.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace cli {

bool write_file_atomically(const std::string& path, const std::string& content, std::string& error) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      error = "cannot write '" + path + "'";
      return false;
    }
    out << content;
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      error = "cannot write '" + path + "'";
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    error = "cannot write '" + path + "': " + ec.message();
    return false;
  }
  return true;
}

std::string default_scenarios_dir() {
  if (std::filesystem::is_directory("scenarios")) return "scenarios";
  return std::string(CLERK_SOURCE_DIR) + "/scenarios";
}

}  // namespace cli
