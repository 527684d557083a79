// A temporary folder (mkdtemp: mode 0700, an unpredictable name) removed with
// everything in it when it goes out of scope, however the scope ends (a
// calibrate that fails half-way, a plot stopped by ^C, a SimGrid run whose
// process failed).
#pragma once
#include <string>

namespace common {

class TempDir {
 public:
  // `prefix` + six random characters: "/tmp/clerk-plot-" makes
  // /tmp/clerk-plot-Ab12Cd. Throws std::runtime_error naming the folder and
  // the reason when it cannot be made.
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

}  // namespace common
