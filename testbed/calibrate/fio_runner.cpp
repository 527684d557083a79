#include "testbed/calibrate/fio_runner.h"

#include <sys/stat.h>

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "testbed/calibrate/interrupt.h"
#include "testbed/calibrate/tools.h"

namespace testbed::calibrate {

const char* fio_percentile_list() {
  return "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99";
}

std::vector<std::string> fio_read_args(const FioPlan& plan, std::uint64_t block_bytes, unsigned qd,
                                       const std::string& output_file) {
  return {fio_tool().path,
          fmt::format("--name=randread-{}k-qd{}", block_bytes >> 10, qd),
          "--filename=" + plan.file,
          fmt::format("--size={}", plan.file_bytes),
          "--rw=randread",
          fmt::format("--bs={}k", block_bytes >> 10),
          fmt::format("--iodepth={}", qd),
          "--direct=1",
          "--ioengine=libaio",
          "--time_based",
          fmt::format("--runtime={}ms", static_cast<long>(plan.seconds * 1000)),
          "--ramp_time=200ms",
          "--norandommap",
          "--randrepeat=0",
          std::string("--percentile_list=") + fio_percentile_list(),
          "--output-format=json",
          "--output=" + output_file};
}

bool prepare_fio_file(const FioPlan& plan) {
  struct stat st {};
  if (stat(plan.file.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) >= plan.file_bytes) return false;
  // Written with real data (not a sparse file, whose holes read without I/O).
  run_and_capture({fio_tool().path, "--name=layout", "--filename=" + plan.file, fmt::format("--size={}", plan.file_bytes),
                   "--rw=write", "--bs=1m", "--direct=1", "--ioengine=libaio", "--iodepth=8", "--end_fsync=1",
                   "--output-format=terse"});
  return true;
}

namespace {
double percentile_s(const FioJob& j, double percent) {
  for (const auto& [p, t] : j.clat_percentiles)
    if (p >= percent) return t;
  return j.clat_max_s;
}
}  // namespace

std::vector<FioJob> run_fio(const FioPlan& plan, const std::string& scratch_dir) {
  std::vector<FioJob> jobs;
  const std::string out = scratch_dir + "/fio.json";
  for (const std::uint64_t bs : plan.block_sizes) {
    for (const unsigned qd : plan.queue_depths) {
      throw_if_interrupted();
      run_and_capture(fio_read_args(plan, bs, qd, out));
      std::ifstream in(out);
      std::stringstream ss;
      ss << in.rdbuf();
      auto parsed = parse_fio_json(ss.str());
      if (parsed.size() != 1) throw std::runtime_error("fio: expected one job in " + out);
      const FioJob& j = parsed.front();
      fmt::print("  fio randread bs={:>5}k QD{:<2}: {:>8.0f} IOPS, {:>7.1f} MB/s, mean {:>8.1f} us, p99 {:>8.1f} us\n",
                 bs >> 10, qd, j.iops, j.bandwidth_Bps / 1e6, j.clat_mean_s * 1e6,
                 percentile_s(j, 99) * 1e6);
      std::fflush(stdout);
      jobs.push_back(std::move(parsed.front()));
    }
  }
  std::remove(out.c_str());
  return jobs;
}

}  // namespace testbed::calibrate
