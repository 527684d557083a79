// A temporary folder (mkdtemp: mode 0700, an unpredictable name) removed with
// everything in it when it goes out of scope, however the scope ends (a
// calibrate that fails half-way, a plot stopped by ^C, a SimGrid run whose
// process failed).
#pragma once
#include "common/stop_signals.h"

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

// `name` in the temporary folder: $TMPDIR (std::filesystem's
// temp_directory_path), /tmp when it is unset or unusable.
std::string temp_prefix(const std::string& name);

// A TempDir for a step of milliseconds (the folder clerk new and clerk
// import load their text from before writing it): stop signals are held
// (HeldStopSignals) from before the folder is made until after it is
// removed, so that a Ctrl-C there leaves no folder behind and then ends the
// process as it would have (review of probe 5's fixes, finding 3). Counted
// by the writer's test hook (CLERK_TEST_PAUSE_AT_TEMPORARY, stop_signals.h).
class HeldTempDir {
 public:
  explicit HeldTempDir(const std::string& prefix);
  const std::string& path() const { return dir_.path(); }
  std::string file(const std::string& name) const { return dir_.file(name); }

 private:
  HeldStopSignals hold_;  // first: released after the folder is gone
  TempDir dir_;
};

}  // namespace common
