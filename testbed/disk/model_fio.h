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

FioFigures model_fio(const models::Scenario& sc, const ModelFioSpec& spec);

}  // namespace testbed::disk
