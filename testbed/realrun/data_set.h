// The scenario's files on disk: the same tree, names and sizes the simulator
// serves, filled with random bytes, described by a manifest so that the next
// run with the same set reuses it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace testbed::realrun {

struct DataSetSpec {
  std::vector<std::uint32_t> tree;   // entries per level; the product is the file count
  std::vector<std::uint64_t> sizes;  // per file, in file-id order
  std::uint64_t total_bytes() const;
  std::uint64_t files() const { return sizes.size(); }
};

// The scenario's data set: its tree, and each file's size (a size mix is
// drawn exactly as models::Filesystem draws it, from the scenario's seed).
DataSetSpec data_set_spec(const models::Scenario& scenario);

// "/1/1/1" style path of a file id (as models::Filesystem::path()).
std::string file_path(const std::vector<std::uint32_t>& tree, std::uint64_t file);

// The manifest's text (JSON): what the set holds, for the reuse check.
std::string manifest_text(const DataSetSpec& spec);
inline constexpr const char* kManifestName = ".clerk-dataset.json";

struct DataSetReport {
  bool reused = false;
  double seconds = 0;  // creating or checking it
  std::string note;    // for RealRunResult::notes
};

// Makes the set under `dir` unless its manifest matches and every file has
// its size. Refuses (RealRunError) to touch a non-empty directory without a
// manifest, and a set that does not fit the file system. Leaves no page
// cache behind (fsync, then POSIX_FADV_DONTNEED).
DataSetReport ensure_data_set(const std::string& dir, const DataSetSpec& spec);

// POSIX_FADV_DONTNEED over every file: drops its clean cached pages.
void evict_data_set(const std::string& dir, const DataSetSpec& spec);

}  // namespace testbed::realrun
