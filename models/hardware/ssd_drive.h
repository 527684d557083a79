// A solid-state drive: fast on average, with rare slow reads.
//
// Each read takes an access time drawn from a distribution, plus its
// transfer at the bandwidth one of the drive's `parallelism` internal units
// delivers; up to `parallelism` reads are served at once and the rest wait
// in arrival order (the drive's queue).
//
// A drive whose throughput grows with the number of reads outstanding (a
// virtual disk whose host overlaps a deep queue's transfers, or a drive that
// pipelines) has `depth_bandwidth`: measured (depth, bandwidth) points; a read
// then transfers at the bandwidth for the depth when it starts (reads queued
// and in service, itself included), interpolated linearly between points
// and held flat beyond the ends.
//
// A read that starts where a recent read ended (`sequential_bandwidth` set)
// is a stream's next piece: it takes no access time and transfers at
// `sequential_bandwidth` / `parallelism`. A drive's controller prefetches a
// stream it recognises, and a virtual disk's host reads its image file
// through its own page cache, whose readahead (mm/readahead.c) follows any
// number of interleaved streams by their marker pages: either way the next
// piece is already on its way. The drive remembers the ends of its last
// kRememberedEnds reads (a bound of the model, not a measured figure: the
// scenarios run at most a few dozen streams at once). Without
// `sequential_bandwidth` every read is served as a random one.
//
// Each such read is served alone on a unit, so one rate over the units is
// right at one depth only: a rate measured while readahead keeps several
// reads in flight (the busy-time rate of a buffered sequential read, 3420
// MB/s at 6.9 outstanding on the project's virtual disk) serves a lone
// stream's read 2-3x faster than the drive does (one 3936 KiB O_DIRECT read
// at a time took 2.3-3.3 ms there), and a rate measured at depth 1 would cap
// a busy drive below what it delivers. `sequential_depth_bandwidth` gives
// (depth, bandwidth) points read as depth_bandwidth's are: the depth is the
// reads outstanding when the read starts (queued and in service, itself
// included), interpolated linearly between points and held flat beyond the
// ends; the read then transfers at that rate / `parallelism`. A lone read
// (depth 1) takes length / (the depth-1 point / parallelism): what an
// O_DIRECT sequential read at queue depth 1 measures
// (testbed/calibrate/seq_read.h). The rates need not rise with depth: a
// measured table is kept as measured (a virtual disk's host can deliver
// less at some depths than at a lower one).
//
// The access time is either
//  - drawn from a measured distribution (`latency_cdf`, e.g. from fio's
//    completion-latency percentiles), by inverting the CDF with linear
//    interpolation between its points, or
//  - a mixture: a lognormal body (typical reads), rare collisions with
//    garbage collection (a lognormal of milliseconds), and rarer stalls
//    (uniform up to about a second).
//
// SsdDrive is the drive without a clock: its units, its queue, its draws
// and its counters. Its owner (models::Ssd on the event heap) tells it the
// time of each arrival and completion and waits the service times it
// returns, as HddDrive's owners do (hdd_drive.h).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/fifo_queue.h"
#include "sim/random.h"
#include "sim/time.h"
#include "sim/time_average.h"

namespace models {

struct SsdSpec {
  double capacity_bytes = 400e9;
  double read_median_s = 50e-6;
  double read_sigma = 0.3;
  double slow_probability = 0;     // a read that collides with garbage collection
  double slow_median_s = 2e-3;
  double slow_sigma = 1.0;
  double stall_probability = 0;    // a rare stall
  double stall_min_s = 0.1;
  double stall_max_s = 1.0;
  double bandwidth_Bps = 500e6;
  std::uint32_t parallelism = 8;
  std::vector<std::pair<double, double>> depth_bandwidth;  // (outstanding reads, bytes/s), depths rising
  std::uint64_t readahead_bytes = 128 * 1024;
  // Throughput for reads that continue a stream (0: none is told apart).
  double sequential_bandwidth_Bps = 0;
  // The same by reads outstanding, (depth, bytes/s), depths rising (empty: sequential_bandwidth at any depth).
  std::vector<std::pair<double, double>> sequential_depth_bandwidth;
  // Measured access-time CDF: (seconds, cumulative fraction) ascending, ending at 1.
  std::vector<std::pair<double, double>> latency_cdf;
};

// The bandwidth with `depth` reads outstanding: `points` (depth, bytes/s)
// interpolated linearly and held flat beyond the ends; `flat` without points.
double bandwidth_at_depth(const std::vector<std::pair<double, double>>& points, double flat, double depth);

class SsdDrive {
 public:
  SsdDrive(const SsdSpec& spec, sim::RandomStream rng);

  struct Read {
    std::uint64_t length;
    IoListener* listener;
    std::uint64_t tag;
    sim::Time submitted;
    bool sequential;
  };
  // A unit took a read: the owner waits `service`, then calls complete(slot).
  struct Started {
    std::uint32_t slot;
    sim::Time service;  // rounded up to the nanosecond
  };

  // A read arrives at `now`; a unit takes it at once when one is free.
  std::optional<Started> submit(sim::Time now, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                                std::uint64_t tag);
  // The read in `slot` is done at `now`; a queued read, if any, takes the
  // unit (`next`). Returns the finished read, whose listener the owner tells last.
  Read complete(sim::Time now, std::uint32_t slot, std::optional<Started>& next);

  std::uint64_t capacity() const { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  // iostat's await (submission to completion, queue included) and the most
  // reads outstanding since the last reset_peaks, as /proc/diskstats and
  // the block layer's inflight count would show them.
  DiskStats stats(sim::Time now) const;
  void reset_peaks() { max_outstanding_ = static_cast<std::uint32_t>(outstanding()); }

  // One access time, as the drive would draw it (public for tests).
  double sample_access_s();
  // The drive's bandwidth with `depth` reads outstanding.
  double bandwidth_at(double depth) const { return bandwidth_at_depth(spec_.depth_bandwidth, spec_.bandwidth_Bps, depth); }
  // The rate of a stream's next read with `depth` reads outstanding (the drive's, over its units).
  double sequential_bandwidth_at(double depth) const {
    return bandwidth_at_depth(spec_.sequential_depth_bandwidth, spec_.sequential_bandwidth_Bps, depth);
  }
  std::size_t outstanding() const { return queue_.size() + busy_; }
  // Reads served as a stream's continuation so far.
  std::uint64_t sequential_reads() const { return sequential_reads_; }
  static constexpr std::size_t kRememberedEnds = 64;
  std::uint32_t in_service() const { return busy_; }
  const SsdSpec& spec() const { return spec_; }

 private:
  Started start(sim::Time now, const Read& r);
  // Whether a read at `offset` continues a remembered stream; remembers where it ends.
  bool continues_stream(std::uint64_t offset, std::uint64_t end);

  SsdSpec spec_;
  sim::RandomStream rng_;
  sim::FifoQueue<Read> queue_;
  std::vector<Read> in_service_;     // by slot
  std::vector<std::uint32_t> free_slots_;
  std::uint32_t busy_ = 0;
  // iostat's io_ticks: time with at least one read outstanding (part_round_stats
  // adds a tick whenever in_flight > 0), however many units serve at once.
  double busy_s_ = 0;
  sim::Time busy_since_ = 0;
  sim::TimeAverage depth_;
  std::uint64_t reads_ = 0, read_bytes_ = 0;
  double await_sum_s_ = 0;           // completed reads' submission-to-completion times
  std::uint32_t max_outstanding_ = 0;
  std::vector<std::uint64_t> ends_;  // a ring of the last reads' ends
  std::size_t next_end_ = 0;
  std::uint64_t sequential_reads_ = 0;
};

}  // namespace models
