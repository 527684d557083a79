// A temporary directory removed with everything in it when it goes out of
// scope (also when calibrate fails half-way).
#pragma once
#include <string>

namespace testbed::calibrate {

class TempDir {
 public:
  // /tmp/clerk-calibrate-<pid>-XXXXXX: named after this process, so that a
  // later calibrate can tell it stale once this one is gone.
  TempDir();
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool keep_ = false;
};

}  // namespace testbed::calibrate
