#include "testbed/calibrate/temp_dir.h"

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "testbed/common/stale_state.h"

namespace testbed::calibrate {

TempDir::TempDir() : TempDir("/tmp/" + common::own_state_name("clerk-calibrate") + "-") {}

TempDir::TempDir(const std::string& prefix) {
  std::vector<char> name(prefix.begin(), prefix.end());
  for (char c : std::string("XXXXXX")) name.push_back(c);
  name.push_back('\0');
  if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a directory " + prefix + "XXXXXX");
  path_ = name.data();
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace testbed::calibrate
