// The model's own figures for what fio measures on a clerk-disk mount: the
// same device (emulated_machine.h) driven in simulated time by `jobs`
// closed-loop readers, each reading `block` bytes at a random block-aligned
// offset of a random file of the data set, then the next at once (fio
// rw=randread, numjobs = jobs, iodepth 1 each: psync). A read of a block
// larger than the kernel's read-request size reaches the device as
// requests of `request` bytes one after another: fio's random reads set
// POSIX_FADV_RANDOM (fadvise_hint), so filemap_read's page_cache_sync_ra
// reads what is asked in force_page_cache_ra's chunks of
// max(bdi io_pages, ra_pages) (128 KiB with read_ahead_kb = 128), and
// filemap_read waits for each chunk's pages before asking for the next
// (seen on Linux 6.18 through a clerk-disk mount: a 512 KiB read at QD 4
// was four 128 KiB FUSE reads, never more than 4 outstanding).
// Latency is per block, from the reader's call to the last request's
// completion (with overhead_us, that includes the waits before requests).
#pragma once
#include <cstdint>
#include <vector>

#include "models/scenario/scenario.h"

namespace testbed::disk {

struct FioFigures {
  double iops = 0;
  double mean_us = 0, p50_us = 0, p90_us = 0, p99_us = 0;
  std::uint64_t reads = 0;
};

struct ModelFioSpec {
  std::uint64_t block = 4096;
  std::uint64_t request = 128 * 1024;  // the kernel's read-request size (a block's requests are at most this)
  std::uint32_t jobs = 1;
  double seconds = 60;                 // simulated
  std::uint64_t seed = 1;
  // clerk-disk's own cost per request (its null-delay latency over a
  // block's requests): each request waits this long before the device
  // sees it, as a client's think time in a closed loop, so that the
  // figures are what the model plus the emulator should give, queueing
  // included (an overhead overlaps the device's work at depth).
  double overhead_us = 0;
};

// Refuses (common::BadInput) a block that no file of the data set holds
// (its largest file is smaller): no read could be issued.
FioFigures model_fio(const models::Scenario& sc, const ModelFioSpec& spec);

// The reads' latencies, in the engine's whole nanoseconds, counted in a
// bounded log-linear histogram rather than kept one by one (a run of up to
// 86,400 simulated seconds completes billions of reads): exact below
// 2^16 ns (65.5 us); above, 2^15 bins a doubling, so a bin is at most 2^-15
// of its values wide and a percentile (the middle of the bin of the sample
// of that rank, within the exact minimum and maximum) is within 2^-16
// (1.5e-5) of the exact sample's: within half the 0.1 us printed up to
// 3.2 ms, 0.3 us at 20 ms (the sorted vector this replaces was exact; the
// fio percentiles they are set beside are within about 1/128 of the value:
// fio's stat.h, FIO_IO_U_PLAT_BITS 6).
// The bins grow as latencies need them: at most 1.6 million (13 MB) for
// the longest latency a sim::Time holds, about 8.6 MB for a day's.
class FioLatencies {
 public:
  void record(std::uint64_t ns);
  std::uint64_t count() const { return count_; }
  double mean_ns() const { return count_ ? static_cast<double>(sum_ns_) / static_cast<double>(count_) : 0.0; }
  // The p-th percentile (0 <= p <= 100) as the sorted samples' index
  // round(p/100 * (count - 1)) gives it, within the bin's width; 0 with no sample.
  double percentile_ns(double p) const;
  std::size_t bins() const { return counts_.size(); }

  static constexpr unsigned kExactBits = 16;  // exact below 2^16 ns; 2^15 bins a doubling above

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::uint64_t sum_ns_ = 0;  // at most jobs x simulated time: 4096 x 86,400 s is 3.5e17 ns
  std::uint64_t min_ns_ = 0, max_ns_ = 0;
};

}  // namespace testbed::disk
