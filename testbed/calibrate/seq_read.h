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
//
// That rate is the drive's at the job's depth (several readahead reads in
// flight), but the model serves each stream's read alone on a unit: at that
// rate a lone stream's read would be served faster than the drive serves
// it when nothing else is outstanding. So a second job reads the same file
// sequentially with O_DIRECT at queue depth 1 (psync: one read at a time,
// no page cache, no readahead), in requests of the buffered job's mean
// size: its mean completion latency is one read's service alone, which is
// what the model gives a read that starts at depth 1. The two give
// `sequential_depth_bandwidth` (ssd_drive.h): depth 1 from the QD1 job, the
// buffered job's depth from its busy-time rate, each as the drive's rate
// over its units (parallelism x one read's rate at depth 1; at a depth below
// parallelism, the rate x parallelism / depth, since that many units were busy).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
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

// The O_DIRECT sequential read at queue depth 1.
struct SeqQd1 {
  std::uint64_t block_bytes = 0;
  std::uint64_t ios = 0;
  double clat_mean_s = 0;   // one read's service, nothing else outstanding
  double bandwidth_Bps = 0;  // what fio got
};

// The QD1 job's request size: the buffered job's mean request, down to a
// multiple of 4 KiB (O_DIRECT's alignment), at least 4 KiB.
std::uint64_t qd1_block_bytes(const SeqFit& buffered);
std::vector<std::string> fio_seq_qd1_args(const std::string& file, std::uint64_t file_bytes, std::uint64_t block_bytes,
                                          double seconds, const std::string& output_file);
SeqQd1 seq_qd1_from(const std::string& fio_json);
// (depth, bytes/s) for sequential_depth_bandwidth: depth 1 from the QD1
// job, then the buffered job's depth when it is above 1. Throws when the QD1
// job read nothing.
std::vector<std::pair<double, double>> sequential_depth_points(const SeqQd1& qd1, const SeqFit& buffered,
                                                               unsigned parallelism);
// The run whose mean latency is the median (the lower middle one of an even count); throws on none.
std::size_t median_qd1_run(const std::vector<SeqQd1>& runs);
SeqQd1 run_sequential_qd1(const FioPlan& plan, std::uint64_t block_bytes, const std::string& scratch_dir);

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
