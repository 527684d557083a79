#define FUSE_USE_VERSION 35
#include "daemon.h"

#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/bad_input.h"
#include "common/text_file.h"
#include "common/unique_fd.h"
#include "content.h"
#include "disk_fs.h"
#include "emulated_machine.h"
#include "mount_tuning.h"
#include "realtime_disk.h"

namespace testbed::disk {

namespace {
void say(const std::string& line) { std::fprintf(stderr, "clerk-disk: %s\n", line.c_str()); }

// Threads started here take no signals: libfuse's handlers must run on the
// main thread, which waits in the session loop.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old_);
  }
  ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  sigset_t old_{};
};

struct SessionDeleter {
  void operator()(fuse_session* se) const { fuse_session_destroy(se); }
};
using Session = std::unique_ptr<fuse_session, SessionDeleter>;

FsTuning tuning_of(const models::Scenario& sc, const EmulatedMachine& m) {
  FsTuning t;
  t.max_background = sc.hardware.block.nr_requests;  // block queue's request slots (BLKDEV_MAX_RQ)
  t.congestion_threshold = t.max_background * 3 / 4;  // FUSE_DEFAULT_CONGESTION_THRESHOLD's ratio
  t.max_readahead = m.readahead_bytes();
  // max_pages: FUSE_MAX_MAX_PAGES (256) at most.
  t.max_request = std::min<std::uint64_t>(m.max_request_bytes(), 256 * 4096);
  return t;
}

Session new_session(DiskFs& fs) {
  std::vector<std::string> words = {"clerk-disk", "-o", "ro,allow_other,fsname=clerk-disk,subtype=clerk-disk"};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  fuse_args args = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());
  Session se(fuse_session_new(&args, &disk_fs_ops(), sizeof(fuse_lowlevel_ops), &fs));
  fuse_opt_free_args(&args);
  return se;  // null when libfuse refused (its message on stderr)
}

// Waits (up to 5 s) until the kernel has the init reply (which sets the
// bdi's readahead and the connection's limits: tuned before it, they would
// be overwritten), then tunes the mount whose device is `device`.
void tune_after_init(const std::string& mountpoint, const std::string& device, const FsTuning& t,
                     const std::atomic<bool>& stop) {
  for (int i = 0; i < 500 && !stop; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (i < 5) continue;  // init is the loop's first request: a few ms
    struct stat st {};
    if (stat(mountpoint.c_str(), &st) == 0) break;  // answered: init is done
  }
  if (stop) return;
  for (const std::string& line :
       tune_mount(device, TuningTargets{t.max_readahead / 1024, t.max_background, t.congestion_threshold}))
    say(line);
  say("max_pages = " + std::to_string(t.max_request / 4096) + " (conn->max_write = " + std::to_string(t.max_request) +
      ")");
}

// SCHED_FIFO at the lowest real-time priority, inherited by every thread
// started after it: replies are timed, and a loaded machine's ordinary
// processes then delay them less. The kernel's RT throttling
// (sched_rt_runtime_us) bounds what a runaway could take.
std::string realtime_priority() {
  sched_param p{};
  p.sched_priority = sched_get_priority_min(SCHED_FIFO);
  if (sched_setscheduler(0, SCHED_FIFO, &p) == 0) return "scheduling: SCHED_FIFO priority " + std::to_string(p.sched_priority);
  return std::string("scheduling: SCHED_OTHER (SCHED_FIFO refused: ") + std::strerror(errno) + ")";
}

void report(const RealtimeDisk& disk, bool null_delay) {
  const LatenessReport r = disk.report();
  char line[320];
  std::snprintf(line, sizeof line,
                "%s: %llu reads, %llu bytes; own latency (reply begun after the model's completion): mean %.1f us, "
                "p50 %.1f us, p99 %.1f us, max %.1f us; the reply itself: mean %.1f us; most reads outstanding "
                "in the model: %u",
                null_delay ? "null-delay" : "emulated", static_cast<unsigned long long>(r.reads),
                static_cast<unsigned long long>(r.bytes), r.mean_us, r.p50_us, r.p99_us, r.max_us, r.reply_mean_us,
                r.max_outstanding);
  say(line);
  std::string sizes = "read sizes (bytes x count):";
  for (const auto& [bytes, count] : r.sizes) sizes += " " + std::to_string(bytes) + "x" + std::to_string(count);
  say(sizes);
}
// After the disk's thread stopped: the metadata reads of the lookups.
void report_metadata(const MetadataReads& metadata, const CachePressure& pressure, const Ext4Inodes& ext4,
                     const models::VfsCache& vfs, const models::PageCache& cache, std::uint64_t lookups,
                     bool null_delay) {
  if (null_delay) {
    say("lookups: " + std::to_string(lookups) + ", answered at once (null delay: no metadata reads)");
    return;
  }
  const MetadataStats m = metadata.stats();
  const models::MetadataBlockStats b = cache.block_stats();
  char line[512];
  std::snprintf(line, sizeof line,
                "lookups: %llu answered; %llu waited for metadata block reads (%llu directory, %llu inode-table); "
                "buffer cache: %llu lookups, %llu hits, %llu blocks read (inode readahead included)",
                static_cast<unsigned long long>(lookups), static_cast<unsigned long long>(m.waits),
                static_cast<unsigned long long>(m.dir_reads), static_cast<unsigned long long>(m.inode_reads),
                static_cast<unsigned long long>(b.lookups), static_cast<unsigned long long>(b.hits),
                static_cast<unsigned long long>(b.blocks_read));
  say(line);
  const CachePressureStats p = pressure.stats();
  const models::PageCacheStats c = cache.stats();
  std::snprintf(line, sizeof line,
                "page cache (clerk-disk's view, cache_pressure.h): %llu reads and %llu opens entered; %llu data units "
                "inserted, %llu evicted, %llu resident; %llu entries on the active list (blocks included); %llu metadata blocks evicted",
                static_cast<unsigned long long>(p.reads), static_cast<unsigned long long>(p.opens),
                static_cast<unsigned long long>(c.inserted_units), static_cast<unsigned long long>(c.evicted_units),
                static_cast<unsigned long long>(c.resident_units), static_cast<unsigned long long>(c.active_units),
                static_cast<unsigned long long>(b.blocks_evicted));
  say(line);
  const models::VfsCacheStats v = vfs.stats();
  std::snprintf(line, sizeof line,
                "ext4's inode cache (the model's, behind the kernel's): %llu lookups found the inode there only; "
                "%llu dentries and %llu inodes now, %llu inodes freed by the shrinker",
                static_cast<unsigned long long>(ext4.ext4_only_hits()), static_cast<unsigned long long>(v.dentries),
                static_cast<unsigned long long>(v.inodes), static_cast<unsigned long long>(v.inodes_freed));
  say(line);
}
}  // namespace

int run_daemon(const models::Scenario& sc, const DaemonOptions& options) {
  // Not serving is exit status 1; a live mount at the mount point is bad
  // input (common::BadInput, exit 2 in main); any other exception out of
  // here is an internal error (3).
  try {
    for (const std::string& line : clean_stale_mount(options.mountpoint)) say(line);
  } catch (const common::BadInput&) {
    throw;
  } catch (const std::runtime_error& e) {
    say(e.what());
    return 1;
  }
  struct stat st {};
  if (stat(options.mountpoint.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    say("the mount point " + options.mountpoint + " is not a directory");
    return 2;
  }
  sim::Engine engine;
  EmulatedMachine machine(sc, engine);
  say(realtime_priority());
  std::unique_ptr<RealtimeDisk> disk;
  {
    SignalsBlocked blocked;
    disk = std::make_unique<RealtimeDisk>(engine, machine.device(), options.null_delay);
  }
  KernelInodes inodes(machine);
  Ext4Inodes ext4_inodes(machine, inodes, machine.vfs());  // the disk thread's from here on
  DiskJobs jobs(*disk);
  MetadataReads metadata(machine.cache(), machine.layout(), ext4_inodes, jobs);  // likewise
  CachePressure pressure(machine.cache());                                        // likewise
  DiskFs fs{machine, *disk, metadata, pressure, inodes, ext4_inodes, tuning_of(sc, machine)};
  Session se = new_session(fs);
  if (!se) {
    say("fuse_session_new failed (see libfuse's message above)");
    return 1;
  }
  if (fuse_set_signal_handlers(se.get()) != 0) {
    say("fuse_set_signal_handlers failed");
    return 1;
  }
  if (fuse_session_mount(se.get(), options.mountpoint.c_str()) != 0) {
    fuse_remove_signal_handlers(se.get());
    say("cannot mount at " + options.mountpoint + " (see libfuse's message above)");
    return 1;
  }
  // Listed from the mount itself on (init need not be done). Not found, the
  // mount could not be tuned: a disk other than the scenario's would be
  // served (probe 6, finding 6, where a note said so and the run went on).
  const std::string device = fuse_mount_device(common::read_text("/proc/self/mountinfo"), options.mountpoint);
  if (device.empty()) {
    fuse_remove_signal_handlers(se.get());
    fuse_session_unmount(se.get());
    say("mounted at " + options.mountpoint + ", but /proc/self/mountinfo lists no FUSE mount there, so it cannot " +
        "be tuned; unmounted (an internal error: please report it with the command line)");
    return 3;
  }
  say("mounted " + std::to_string(machine.files().files()) + " files at " + options.mountpoint +
      (options.null_delay ? " (null delay)" : ""));
  std::atomic<bool> stop_tuning{false};
  std::thread tuner;
  {
    SignalsBlocked blocked;
    tuner = std::thread([&] { tune_after_init(options.mountpoint, device, fs.tuning, stop_tuning); });
  }
  fuse_loop_config config{};
  config.clone_fd = 0;
  config.max_idle_threads = options.threads;
  const int loop = fuse_session_loop_mt(se.get(), &config);
  stop_tuning = true;
  tuner.join();
  for (RealtimeDisk::Done& d : disk->stop()) d(false);
  report(*disk, options.null_delay);
  report_metadata(metadata, pressure, ext4_inodes, machine.vfs(), machine.cache(), disk->report().jobs,
                  options.null_delay);
  fuse_remove_signal_handlers(se.get());
  fuse_session_unmount(se.get());
  say("unmounted " + options.mountpoint);
  return loop < 0 ? 1 : 0;
}

int verify_mount(const models::Scenario& sc, const std::string& mountpoint, std::uint32_t files) {
  sim::Engine engine;
  EmulatedMachine machine(sc, engine);
  int bad = 0;
  std::vector<char> buf(1 << 20);
  const std::uint32_t n = std::min(files, machine.files().files());
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::string path = machine.files().path(f);
    const std::string full = mountpoint + path;
    const common::UniqueFd fd(open(full.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
      say("verify: cannot open " + full + ": " + std::strerror(errno));
      ++bad;
      continue;
    }
    std::uint64_t at = 0;
    bool file_bad = false;  // this file's read or bytes failed: its size says nothing more
    while (true) {
      const ssize_t got = read(fd.get(), buf.data(), buf.size());
      if (got < 0) {
        say("verify: " + full + ": read at " + std::to_string(at) + ": " + std::strerror(errno));
        file_bad = true;
        break;
      }
      if (got == 0) break;
      const std::int64_t wrong = first_mismatch(path_key(path), at, buf.data(), static_cast<std::size_t>(got));
      if (wrong >= 0) {
        say("verify: " + full + ": wrong byte at offset " + std::to_string(wrong));
        file_bad = true;
        break;
      }
      at += static_cast<std::uint64_t>(got);
    }
    if (!file_bad && at != machine.files().file_size(f)) {
      say("verify: " + full + ": " + std::to_string(at) + " bytes read, the data set says " +
          std::to_string(machine.files().file_size(f)));
      file_bad = true;
    }
    if (file_bad) ++bad;
  }
  say("verify: " + std::to_string(n) + " files, " + std::to_string(bad) + " bad");
  return bad == 0 ? 0 : 1;
}

}  // namespace testbed::disk
