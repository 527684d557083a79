// A hand-made /proc or /sys tree in a temporary directory, read through
// common::files_under(root()) by the tests of the parsers built on ProcFiles.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace common::test {

class FakeTree {
 public:
  FakeTree() {
    static std::atomic<int> serial{0};
    root_ = std::filesystem::temp_directory_path() /
            ("clerk-fake-tree-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~FakeTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;

  std::string root() const { return root_.string(); }
  // Writes `text` at `path` ("/proc/1/stat"), making its directories.
  void write(const std::string& path, const std::string& text) const {
    const std::filesystem::path p = root_.string() + path;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }
  void remove(const std::string& path) const { std::filesystem::remove_all(root_.string() + path); }

 private:
  std::filesystem::path root_;
};

}  // namespace common::test
