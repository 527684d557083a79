#include "models/scenario/resource_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <deque>
#include <fmt/format.h>
#include <unistd.h>

#include "models/clients/wrk_group.h"
#include "models/scenario/config_error.h"
#include "models/scenario/disk_kinds.h"
#include "models/server/pool_choice.h"

namespace models {

namespace {

constexpr double kBaseBytes = 64.0 * 1024 * 1024;
constexpr double kBytesPerConnection = 16.0 * 1024;
// sim::LatencyStats: 2,400 bins and two overflow bins; counters widen as
// they grow (Boost.Histogram's unlimited storage), 4 bytes is the bound for
// the counts one second can reach.
constexpr double kWindowBytes = 2402.0 * 4 + 128;
// The result's per-second heat-map column (wrk_result.h's LatencyBins): at
// most kHeatBins 8-byte counts and the vector itself.
constexpr double kHeatColumnBytes = kHeatBins * 8.0 + 32;
constexpr double kIfstatBytesPerSecond = 16;
constexpr double kWrkTableBytesPerMicrosecond = 4.0 / 64;  // WrkHistogram's page table
// Per open-loop request due and not yet written: its entry in its
// schedule's queue (wrk_group.h's PendingRequests), and nothing else: its
// age at the end is recorded straight into a histogram (wrk.cpp's finish).
// libstdc++ keeps a deque in nodes of _GLIBCXX_DEQUE_BUF_SIZE bytes (512),
// each a malloc chunk with a 16-byte header, found through a map of one
// pointer a node that doubles as it grows (old and new maps live while it
// copies: 3 pointers a node at worst). For 8-byte times: 552 / 64 = 8.6
// bytes a request. Measured (probe 5, finding 2): the old 8 bytes, with a
// vector of every age built at the end, came to 17-22 bytes a request.
#ifdef _GLIBCXX_DEQUE_BUF_SIZE
constexpr std::size_t kDequeNodeBytes = _GLIBCXX_DEQUE_BUF_SIZE;
#else
constexpr std::size_t kDequeNodeBytes = 512;
#endif
constexpr std::size_t kMallocHeaderBytes = 16;
constexpr double pending_request_bytes() {
  constexpr std::size_t entry = sizeof(PendingRequests::value_type);
  constexpr std::size_t per_node = entry < kDequeNodeBytes ? kDequeNodeBytes / entry : 1;
  return static_cast<double>(per_node * entry + kMallocHeaderBytes + 3 * sizeof(void*)) / static_cast<double>(per_node);
}
constexpr double kPendingRequestBytes = pending_request_bytes();
// Per file of the data set, held for the whole run whether or not it is
// read: its size (FilesystemSpec::sizes or the drawn sizes, 8 bytes), its
// offset (Filesystem::offsets_, 8), its page-cache record (PageCache::File:
// offset, size, units, first slot, 32), its inode number and directory
// extent (Ext4Layout::ino_ 8, dirs_ 16): 72 bytes, and the slack of the
// vectors grown as the data set is built. Measured (peak RSS over 4,096
// files of 4k): 91 B a file at 65,536 files, 95 at 262,144, 80 at
// 1,048,576, 72 at 4,194,304.
// A size mix keeps each file's size once more (Filesystem::sizes_).
constexpr double kBytesPerFile = 96;
constexpr double kBytesPerMixedFile = 8;
// Per thread of a thread pool, in every worker (ngx_thread_pool_init_worker):
// the thread, its CPU thread and its task's state record. Measured: 32
// workers of 4,096 threads took 41 MB more than of 1,024 (428 B a thread).
constexpr double kBytesPerPoolThread = 432;
// Per io_uring pool thread (IoUringConfig::pool_threads: an io-wq worker,
// or with page callbacks one wait entry per SQ entry), in every worker: the
// ring's pool is a ThreadPool of that many threads (worker.cpp), so the
// same records as a thread pool's. Measured (the sixth probe's way: peak
// RSS by /usr/bin/time -f %M of agreement/hits.toml, aio = "io_uring", 8
// workers, 0.05 s): 21,216 KB at 4,096 entries, 117,072 KB at 32,768, so
// 428 B an entry (the probe: 415).
constexpr double kBytesPerRingThread = 432;
// Per disk drive (each member of an array, each [disks.NAME]): its model,
// its request queue and the md layer's records of it; per unit of a drive
// (an SSD's parallelism): the unit's read slot (SsdDrive::Read, 40 bytes)
// and its free-list entry (4). Measured (peak RSS of agreement/hits.toml
// with N [disks.dN] SSDs, 0.05 s): 8,240 KB with 200 of 1 unit, 44,084 KB
// with 200 of 4,096 units (44.8 B a unit); 8,036 KB with none, 14,304 KB
// with 2,000 of 1 unit (3.2 KB a drive); 7,916 KB with 8 RAID0 arrays of 2
// HDDs, 12,716 KB with 8 of 256 (2.4 KB a drive and its request queue).
constexpr double kBytesPerDrive = 4096;
constexpr double kBytesPerDiskUnit = 48;
// Per cache unit in the page cache: its entry (PageCache::Entry, 32 bytes)
// and its slot (4). Measured: a 4g preload in 4k units took 27 MB more than
// a 1g one (36 B a unit).
constexpr double kBytesPerCachedUnit = 36;
// Per cache unit the run itself reads in (beyond the preload): the entry and
// slot as above, in a pool that doubles as it grows, old and new copies
// both touched while it copies (a preload reserves its room at once,
// PageCache::reserve_units), and the slots' pages touched. Measured (peak
// RSS of agreement/misses.toml over 2^20 files of 1 MiB in 4 KiB units,
// read at about 300 GB/s for 0.04 s, so that the cache fills): 158,376 KB
// with page_cache = "1g", 178,436 KB with "2g", 78 B a unit (the probe saw
// 52 B a unit while the cache was still filling).
constexpr double kBytesPerReadUnit = 80;
// Per window of a trace group's report (TraceWindow): four latency windows
// (the response, time to first byte, NGINX's $request_time, the log's), at
// kWindowBytes each, and the window's figures.
constexpr double kTraceWindowBytes = 4 * kWindowBytes + 128;

std::string bytes_text(double b) {
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", b / (1024.0 * 1024 * 1024));
  return fmt::format("{:.0f} MiB", std::ceil(b / (1024.0 * 1024)));
}

double data_set_files(const Scenario& sc) {
  const double files = static_cast<double>(sc.filesystem.files);
  return files * (kBytesPerFile + (sc.filesystem.size_mix.empty() ? 0 : kBytesPerMixedFile));
}

double pool_threads(const Scenario& sc) {
  if (!sc.nginx.aio->thread_pool) return 0;  // no pool runs (worker.cpp)
  double threads = 0;
  for (const ThreadPoolConfig& p : all_thread_pools(sc.nginx)) threads += p.threads;
  return static_cast<double>(sc.nginx.worker_processes) * threads * kBytesPerPoolThread;
}

// Every worker's io_uring pool (worker.cpp), with a ring.
double ring_threads(const Scenario& sc) {
  if (!sc.nginx.aio->io_uring) return 0;
  return static_cast<double>(sc.nginx.worker_processes) * static_cast<double>(sc.nginx.io_uring.pool_threads) *
         kBytesPerRingThread;
}

// The drives and their units of [disk] and of every [disks.NAME] (built
// whether or not a read reaches them).
double disk_drives(const HardwareSpec& hw) {
  auto bytes = [](const DiskSpec& spec) {
    const DiskUnits u = disk_units(spec);
    return u.drives * (kBytesPerDrive + u.units_per_drive * kBytesPerDiskUnit);
  };
  double sum = bytes(hw.disk);
  for (const HardwareSpec::NamedDisk& d : hw.disks) sum += bytes(d.spec);
  return sum;
}

// The largest file the data set can hold: file_size, a mix's largest class,
// or a replayed log's largest file.
double largest_file(const FilesystemSpec& fs) {
  double most = static_cast<double>(fs.file_size);
  if (!fs.size_mix.empty()) most = 0;
  for (const SizeClass& c : fs.size_mix) most = std::max(most, static_cast<double>(c.max));
  for (const std::uint64_t b : fs.sizes) most = std::max(most, static_cast<double>(b));
  return most;
}

// The cache units preloaded (warm_caches): the named files and the first
// preload_fraction of the files, or every file with no disk; a preload never
// exceeds the page cache (world_files.cpp refuses it), the whole data set
// with no disk does (the loader checks it fits).
double preloaded_units(const Scenario& sc) {
  const FilesystemSpec& fs = sc.filesystem;
  const double largest = largest_file(fs);
  const double files = static_cast<double>(fs.files);
  const double unit = static_cast<double>(std::max<std::uint64_t>(sc.hardware.cache_unit_bytes, 1));
  const double units_per_file = std::ceil(largest / unit);
  if (disk_kind(sc.hardware.disk).in_memory) return files * units_per_file;
  const double named = std::min(static_cast<double>(sc.preload.size()), files);
  const double wanted = (named + std::ceil(sc.preload_fraction * files)) * units_per_file;
  return std::min(wanted, std::floor(static_cast<double>(sc.hardware.page_cache_bytes) / unit));
}

// The cache units the run can read in beyond its preload: at most the
// page cache's, and at most the data set's (each file in units of the
// largest file's size, an upper bound for a mix).
double read_units(const Scenario& sc) {
  if (disk_kind(sc.hardware.disk).in_memory) return 0;  // preloaded whole: nothing is read in
  const double unit = static_cast<double>(std::max<std::uint64_t>(sc.hardware.cache_unit_bytes, 1));
  const double capacity = std::floor(static_cast<double>(sc.hardware.page_cache_bytes) / unit);
  const double data_set = static_cast<double>(sc.filesystem.files) * std::ceil(largest_file(sc.filesystem) / unit);
  return std::max(std::min(capacity, data_set) - preloaded_units(sc), 0.0);
}

double trace_windows(const WrkGroupSpec& g, double duration_s) {
  if (!g.trace.enabled() || g.trace.window_s <= 0) return 0;
  return (std::ceil(std::max(duration_s, 0.0) / g.trace.window_s) + 1) * kTraceWindowBytes;
}

// " after a warm-up of up to 1800 s", or nothing without one.
std::string warmup_text(const WarmupSpec& w) {
  if (w.longest_s() <= 0) return "";
  return fmt::format(" after a warm-up of {}{:g} s", w.settled ? "up to " : "", w.longest_s());
}

}  // namespace

std::string memory_text(double bytes) { return bytes_text(bytes); }

double ResourceEstimate::total_bytes() const {
  double sum = 0;
  for (const Part& p : parts) sum += p.bytes;
  return sum;
}

std::string ResourceEstimate::text() const {
  std::string out = bytes_text(total_bytes()) + " (";
  bool first = true;
  for (const Part& p : parts) {
    if (p.bytes <= 0) continue;  // a term this scenario does not have
    out += fmt::format("{}{} {}", first ? "" : ", ", p.what, bytes_text(p.bytes));
    first = false;
  }
  return out + ")";
}

const ResourceEstimate::Part& ResourceEstimate::largest() const {
  return *std::max_element(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.bytes < b.bytes; });
}

ResourceEstimate estimate_resources(const Scenario& sc, double duration_s) {
  const double warmup_s = std::max(sc.warmup.longest_s(), 0.0);
  // wrk's per-second and trace windows are kept from t = 0 through the
  // warm-up too (the visualizer shows them), then dropped when the window
  // begins (WrkGroup::restart): the longer of the two is held at once
  // (probe 7, finding 1).
  const double held_s = std::max(duration_s, warmup_s);
  const double seconds = std::ceil(std::max(held_s, 0.0)) + 1;
  double connections = 0, series = 0, histograms = 0, backlog = 0, windows = 0;
  // The warm-up runs the same load first, and what it leaves unsent is
  // still queued when the window begins (probe 6, finding 2).
  const double loaded_s = std::max(duration_s, 0.0) + warmup_s;
  for (const WrkGroupSpec& g : sc.clients) {
    windows += trace_windows(g, held_s);
    connections += static_cast<double>(g.connections) * kBytesPerConnection;
    series += seconds * (2 * kWindowBytes + kHeatColumnBytes);
    histograms += std::max(g.timeout_s, 0.0) * 1e6 * kWrkTableBytesPerMicrosecond;
    backlog += std::max(g.rate, 0.0) * loaded_s * kPendingRequestBytes;
  }
  series += seconds * kIfstatBytesPerSecond;
  ResourceEstimate e;
  e.parts = {{"program and tables", kBaseBytes},
             {"connections", connections},
             {"per-second series", series},
             {"latency histograms", histograms},
             {"open-loop backlog", backlog},
             {"data set files", data_set_files(sc)},
             {"thread pool threads", pool_threads(sc)},
             {"io_uring rings", ring_threads(sc)},
             {"disk units", disk_drives(sc.hardware)},
             {"preloaded cache units", preloaded_units(sc) * kBytesPerCachedUnit},
             {"cache units read in", read_units(sc) * kBytesPerReadUnit},
             {"trace windows", windows}};
  return e;
}

double memory_budget_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page) / 2;
}

void check_fits_machine(const Scenario& sc, double duration_s, const std::string& where) {
  const double budget = memory_budget_bytes();
  if (budget <= 0) return;  // unknown: run as before
  const ResourceEstimate e = estimate_resources(sc, duration_s);
  if (e.total_bytes() <= budget)
    return;
  throw ConfigError(where, 0, "",
                    fmt::format("a run of {:g} s{} would need about {}, more than the {} allowed (half of this "
                                "machine's memory): make its largest part, {}, smaller (or the run shorter)",
                                duration_s, warmup_text(sc.warmup), e.text(), bytes_text(budget), e.largest().what));
}

}  // namespace models
