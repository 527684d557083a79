#include "testbed/common/output_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

namespace testbed::common {

std::string output_path_problem(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  if (path.empty()) return fmt::format("{}: an empty path", option);
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0 && S_ISDIR(target.st_mode))
    return fmt::format("{} {}: is a folder; give a file name", option, path);
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return fmt::format("{} {}: {}", option, path, ec.message());
  const std::string folder = absolute.parent_path().string();
  struct stat dir {};
  if (::stat(folder.c_str(), &dir) != 0)
    return fmt::format("{} {}: no folder {} ({})", option, path, folder, std::strerror(errno));
  if (!S_ISDIR(dir.st_mode)) return fmt::format("{} {}: {} is not a folder", option, path, folder);
  // The file is written beside its target and renamed: the folder must take new files.
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return fmt::format("{} {}: cannot write in {} ({})", option, path, folder, std::strerror(errno));
  return {};
}

}  // namespace testbed::common
