// fio's JSON output (--output-format=json) reduced to what the SSD fit needs.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace testbed::calibrate {

struct FioJob {
  std::string name;
  std::uint64_t block_bytes = 0;   // job options "bs"
  unsigned queue_depth = 0;        // job options "iodepth"
  double iops = 0;
  double bandwidth_Bps = 0;        // read.bw_bytes
  std::uint64_t ios = 0;           // read.total_ios
  double clat_mean_s = 0;          // completion latency (submission to completion)
  double clat_min_s = 0;
  double clat_max_s = 0;
  // Completion-latency percentiles: (percent, seconds), ascending.
  std::vector<std::pair<double, double>> clat_percentiles;
};

// The read side of every job in one fio JSON document; throws on a document
// that is not fio's.
std::vector<FioJob> parse_fio_json(const std::string& text);

}  // namespace testbed::calibrate
