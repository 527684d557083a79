#include "common/proc_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace common {
namespace {

std::string read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

std::string list_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return {};
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += n + "\n";
  return out;
}

class FilesUnder final : public ProcFiles {
 public:
  explicit FilesUnder(std::string root) : root_(std::move(root)) {}
  std::string read(const std::string& path) const override {
    const std::string full = root_ + path;
    return !path.empty() && path.back() == '/' ? list_directory(full) : read_file(full);
  }

 private:
  std::string root_;
};

}  // namespace

std::unique_ptr<ProcFiles> files_under(const std::string& root) { return std::make_unique<FilesUnder>(root); }

}  // namespace common
