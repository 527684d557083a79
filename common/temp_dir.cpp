#include "common/temp_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace common {

TempDir::TempDir(const std::string& prefix) {
  std::vector<char> name(prefix.begin(), prefix.end());
  for (char c : std::string("XXXXXX")) name.push_back(c);
  name.push_back('\0');
  if (!mkdtemp(name.data()))
    throw std::runtime_error("cannot create a temporary folder " + prefix + "XXXXXX: " + std::strerror(errno));
  path_ = name.data();
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string temp_prefix(const std::string& name) {
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  return ((ec ? std::filesystem::path("/tmp") : base) / name).string();
}

HeldTempDir::HeldTempDir(const std::string& prefix) : dir_(prefix) { pause_at_temporary_if_asked(dir_.path()); }

}  // namespace common
