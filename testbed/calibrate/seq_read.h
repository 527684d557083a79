// Sequential buffered reads: what a server's readahead asks of the disk.
//
// fio reads the test file once from start to end through the page cache
// (psync, 1 MiB read()s, --invalidate=1: fio drops the file's pages with
// posix_fadvise(POSIX_FADV_DONTNEED) first), so the device sees the kernel's
// readahead windows, cut at max_sectors_kb, several in flight. What the
// device did comes from /sys/class/block/<dev>/stat before and after:
// requests, sectors, io_ticks (time with a request outstanding),
// time_in_queue. The SSD model (models/hardware/ssd.h) serves a read that
// continues a stream at `sequential_bandwidth`, with no access time, one
// after another over its units; so the fit is the device's throughput while
// busy: bytes / io_ticks. Other processes' reads of the same disk during
// the job count too (the figures say how many requests it saw).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "testbed/calibrate/fio_fit.h"
#include "testbed/calibrate/fio_runner.h"

namespace testbed::calibrate {

struct SeqRead {
  double fio_bandwidth_Bps = 0;        // what the reader got
  std::uint64_t fio_bytes = 0;
  // The device, over the job.
  std::uint64_t requests = 0, bytes = 0;
  double read_ticks_s = 0;             // requests' queue + service times, summed (await x requests)
  double io_ticks_s = 0;               // time with at least one request outstanding
  double time_in_queue_s = 0;          // requests x seconds outstanding
};

struct SeqFit {
  double sequential_bandwidth_Bps = 0;  // bytes / io_ticks
  double mean_request_bytes = 0;
  double mean_depth = 0;                // time_in_queue / io_ticks: requests outstanding while busy
  double await_s = 0;
  // The random model (the O_DIRECT fit) for the same request size at the
  // same depth: one request's service and the drive's throughput.
  double random_service_s = 0;
  double random_bandwidth_Bps = 0;
  double sequential_service_s = 0;      // mean_request_bytes / sequential_bandwidth
};

// fio's arguments (exposed for tests and the profile's comments).
std::vector<std::string> fio_seq_args(const std::string& file, std::uint64_t file_bytes, const std::string& output_file);
// The job's figures from fio's JSON and the device's stat lines before and after.
SeqRead seq_read_from(const std::string& fio_json, const std::string& stat_before, const std::string& stat_after);
// Throws when the device served no read over the job.
SeqFit fit_sequential(const SeqRead& job, const SsdFit& random);
// The run whose busy-time throughput is the median (the lower middle one of
// an even count); throws on none.
std::size_t median_seq_run(const std::vector<SeqRead>& runs);
// Runs the job on `plan.file`, reading `device`'s stat (prints one line).
SeqRead run_sequential_read(const FioPlan& plan, const std::string& device, const std::string& scratch_dir);

}  // namespace testbed::calibrate
