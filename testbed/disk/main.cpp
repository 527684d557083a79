// clerk-disk: a scenario's disk under real software. A FUSE file system
// that shows the scenario's data set and answers each read when the
// scenario's disk model says the disk would (disk_fs.h, realtime_disk.h);
// see README.md, "The scenario's disk under real software: clerk-disk".
//
//   clerk-disk SCENARIO.toml MOUNTPOINT [--set k=v]... [--null-delay]
//   clerk-disk SCENARIO.toml MOUNTPOINT --verify [--files N]
//   clerk-disk SCENARIO.toml --model-fio --bs N --jobs N [--request N] [--overhead-us U] [--seconds S]
//
// Exit statuses, as clerk's (README, "Exit status"): 0 done, 1 could not
// mount or serve (or --verify found a difference), 2 bad command line or
// scenario (a mount point that is no directory, or a live mount already),
// 3 an internal error (any other exception, or our own mount not found in
// /proc/self/mountinfo to tune: a bug in clerk-disk).
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "common/bad_input.h"
#include "common/finite_range.h"
#include "common/shown_text.h"
#include "daemon.h"
#include "model_fio.h"
#include "mount_tuning.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/disk_kinds.h"

int main(int argc, char** argv) {
  CLI::App app{"clerk-disk: the scenario's disk as a FUSE file system, answering reads in the model's time"};
  app.failure_message(  // CLI11 quotes the command line: shown escaped
      [](const CLI::App* a, const CLI::Error& e) { return common::shown_lines(CLI::FailureMessage::simple(a, e)); });
  std::string scenario, mountpoint;
  std::vector<std::string> sets;
  testbed::disk::DaemonOptions options;
  bool verify = false, fio = false;
  std::uint32_t files = 16;
  testbed::disk::ModelFioSpec fio_spec;
  app.add_option("scenario", scenario, "the scenario (.toml)")->required();
  app.add_option("mountpoint", mountpoint, "where to mount the data set (an existing directory)");
  app.add_option("--set", sets, "dotted.key=VALUE over the scenario, as clerk run --set");
  app.add_flag("--null-delay", options.null_delay, "answer every read at once: measures FUSE's and clerk-disk's own cost");
  app.add_option("--threads", options.threads, "libfuse's idle worker threads")->check(common::whole_range(1, 256));
  app.add_flag("--verify", verify, "read the first --files files through MOUNTPOINT and check every byte");
  app.add_option("--files", files, "files for --verify")->check(common::whole_range(1, 1 << 30));
  app.add_flag("--model-fio", fio, "print the model's figures for fio's random reads (simulated, no mount)");
  app.add_option("--bs", fio_spec.block, "--model-fio: bytes per read")->check(common::whole_range(4096, 1 << 26));
  app.add_option("--request", fio_spec.request, "--model-fio: the kernel's read-request size in bytes")
      ->check(common::whole_range(4096, 1 << 26));
  app.add_option("--jobs", fio_spec.jobs, "--model-fio: readers (fio numjobs)")->check(common::whole_range(1, 4096));
  app.add_option("--overhead-us", fio_spec.overhead_us, "--model-fio: clerk-disk's own cost per request (us)")
      ->check(common::finite_range(0.0, 1e6));
  app.add_option("--seconds", fio_spec.seconds, "--model-fio: simulated seconds")->check(common::finite_range(0.001, 86400.0));
  try {
    app.parse(argc, argv);
    if (!fio && mountpoint.empty()) throw CLI::ValidationError("mountpoint", "needed (except with --model-fio)");
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    if (status != 0) return 2;
    // --help lost (a full disk, a closed stdout) is no success.
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "clerk-disk: cannot write the help to standard output\n");
      return 2;
    }
    return 0;
  }
  try {
    const models::Scenario sc = models::load_scenario(scenario, sets);
    // A kind with no device (type "none": the data set lives in the page
    // cache, no read reaches a disk) has nothing to emulate or drive (a read
    // reaching it was exit 3 mid-run). Asked of the registry's row.
    if (const models::DiskKind& kind = models::disk_kind(sc.hardware.disk); kind.in_memory) {
      std::fprintf(stderr, "clerk-disk: %s: its [disk] type is \"%s\": there is no disk to emulate or model\n",
                   common::shown_text(scenario).c_str(), kind.name);
      return 2;
    }
    if (fio) {
      const testbed::disk::FioFigures f = testbed::disk::model_fio(sc, fio_spec);
      std::printf("reads=%llu iops=%.2f mean_us=%.1f p50_us=%.1f p90_us=%.1f p99_us=%.1f\n",
                  static_cast<unsigned long long>(f.reads), f.iops, f.mean_us, f.p50_us, f.p90_us, f.p99_us);
      // The figures lost (a full disk, a closed stdout) are no success.
      if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "clerk-disk: cannot write the figures to standard output: %s\n", std::strerror(errno));
        return 2;
      }
      return 0;
    }
    // Once, before the stale check, the mount and the tuning: each compares
    // with /proc/self/mountinfo's spelling (mount_tuning.h).
    const std::string at = testbed::disk::resolved_mount_point(mountpoint);
    if (verify) return testbed::disk::verify_mount(sc, at, files);
    options.mountpoint = at;
    return testbed::disk::run_daemon(sc, options);
  } catch (const common::BadInput& e) {
    std::fprintf(stderr, "clerk-disk: %s\n", common::shown_lines(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clerk-disk: internal error: %s (a bug: please report it with the command line and the scenario)\n",
                 common::shown_lines(e.what()).c_str());
    return 3;
  }
}
