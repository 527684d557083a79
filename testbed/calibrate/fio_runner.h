// fio on the data directory's filesystem: O_DIRECT random reads of a test
// file (libaio) at each block size and queue depth, one fio run per pair.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "testbed/calibrate/fio_json.h"

namespace testbed::calibrate {

struct FioPlan {
  std::string file;                       // the test file, created (laid out) if missing or short
  std::uint64_t file_bytes = 4ULL << 30;
  std::vector<std::uint64_t> block_sizes{128 << 10, 512 << 10, 1 << 20};
  std::vector<unsigned> queue_depths{1, 4, 16, 32};
  double seconds = 5;                     // per (block size, queue depth)
};

// The percentiles asked of fio: the body finely, the tail to 99.99.
const char* fio_percentile_list();
// fio's arguments for one pair (exposed for tests and for the profile's comments).
std::vector<std::string> fio_read_args(const FioPlan& plan, std::uint64_t block_bytes, unsigned qd,
                                       const std::string& output_file);
// Writes the test file if needed; returns true if it was written now.
bool prepare_fio_file(const FioPlan& plan);
// Every pair, in order; prints one line per run to stdout.
std::vector<FioJob> run_fio(const FioPlan& plan, const std::string& scratch_dir);

}  // namespace testbed::calibrate
