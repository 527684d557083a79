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
// The access time is either
//  - drawn from a measured distribution (`latency_cdf`, e.g. from fio's
//    completion-latency percentiles), by inverting the CDF with linear
//    interpolation between its points, or
//  - a mixture: a lognormal body (typical reads), rare collisions with
//    garbage collection (a lognormal of milliseconds), and rarer stalls
//    (uniform up to about a second).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/engine.h"
#include "sim/fifo_queue.h"
#include "sim/random.h"

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
  // Measured access-time CDF: (seconds, cumulative fraction) ascending, ending at 1.
  std::vector<std::pair<double, double>> latency_cdf;
};

// The bandwidth with `depth` reads outstanding: `points` (depth, bytes/s)
// interpolated linearly and held flat beyond the ends; `flat` without points.
double bandwidth_at_depth(const std::vector<std::pair<double, double>>& points, double flat, double depth);

class Ssd final : public BlockDevice, public sim::EventTarget {
 public:
  Ssd(sim::Engine& engine, const SsdSpec& spec, sim::RandomStream rng);

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag) override;
  std::uint64_t capacity() const override { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  std::uint64_t readahead_bytes() const override { return spec_.readahead_bytes; }
  // iostat's await (submission to completion, queue included) and the most
  // reads outstanding since the last reset_peaks, as /proc/diskstats and
  // the block layer's inflight count would show them.
  DiskStats stats() const override;
  void reset_peaks() override { max_outstanding_ = static_cast<std::uint32_t>(outstanding()); }
  void on_event(std::uint64_t arg) override;

  // One access time, as the drive would draw it (public for tests).
  double sample_access_s();
  // The drive's bandwidth with `depth` reads outstanding.
  double bandwidth_at(double depth) const { return bandwidth_at_depth(spec_.depth_bandwidth, spec_.bandwidth_Bps, depth); }
  std::size_t outstanding() const { return queue_.size() + busy_; }
  // Reads served as a stream's continuation so far.
  std::uint64_t sequential_reads() const { return sequential_reads_; }
  static constexpr std::size_t kRememberedEnds = 64;
  // Read-only views for front ends (the visualizer).
  std::uint32_t in_service() const { return busy_; }
  const SsdSpec& spec() const { return spec_; }

 private:
  struct Read {
    std::uint64_t length;
    IoListener* listener;
    std::uint64_t tag;
    sim::Time submitted;
    bool sequential;
  };
  void start(const Read& r);
  // Whether a read at `offset` continues a remembered stream; remembers where it ends.
  bool continues_stream(std::uint64_t offset, std::uint64_t end);

  sim::Engine& engine_;
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
