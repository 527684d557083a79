#include "testbed/calibrate/calibrate_command.h"
#include "testbed/calibrate/machine_facts.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "models/os/tcp_pacing.h"
#include "models/scenario/config_error.h"
#include "common/output_path.h"
#include "common/shown_text.h"
#include "common/stale_state.h"
#include "testbed/calibrate/calibration.h"
#include "testbed/calibrate/interrupt.h"
#include "testbed/calibrate/loopback_pacing.h"
#include "testbed/calibrate/profile_check.h"
#include "testbed/calibrate/profile_content.h"
#include "testbed/calibrate/profile_writer.h"
#include "common/output_file.h"
#include "testbed/calibrate/tools.h"
#include "testbed/calibrate/unpaced_loopback.h"
#include "common/cache_cgroup.h"

namespace testbed {

using namespace calibrate;

namespace calibrate {
using Request = CalibrateRequest;
}  // namespace calibrate

namespace {
using Clock = std::chrono::steady_clock;

std::vector<std::string> remove_stale_calibrations() {
  // A killed calibrate's congestion control first: its value is in the folder removed next.
  std::vector<std::string> lines = restore_stale_congestion_control();
  const common::CgroupRoots roots;
  for (std::string& line : common::remove_stale_state({"clerk-calibrate-", {roots.v2, roots.v1}, {"/tmp"}}))
    lines.push_back(std::move(line));
  return lines;
}

void phase(const std::string& title) {
  fmt::print("\n== {}\n", title);
  std::fflush(stdout);
}

// The block sizes the server's reads use: readahead windows from 128 KiB up to
// the device's read_ahead_kb, cut into bios of at most 1 MiB (models/os/page_cache).
std::vector<std::uint64_t> read_sizes(std::uint64_t read_ahead_kb) {
  const std::uint64_t cap = std::max<std::uint64_t>(128 << 10, std::min<std::uint64_t>(read_ahead_kb << 10, 1 << 20));
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s : {128ULL << 10, 512ULL << 10, 1ULL << 20})
    if (s <= cap) sizes.push_back(s);
  if (sizes.size() < 2) sizes.insert(sizes.begin(), 16 << 10);  // the fit needs two sizes
  return sizes;
}

void print_table(const Calibration& c, const Profile& p) {
  fmt::print("\n{:<30} {:<22} {}\n", "key", "value", "from");
  auto row = [](const std::string& k, const std::string& v, const std::string& from) {
    fmt::print("{:<30} {:<22} {}\n", k, v, from);
  };
  for (const ProfileTable& t : p.tables)
    for (const ProfileEntry& e : t.entries) {
      if (e.key == "latency_cdf") {
        row(t.name + ".latency_cdf", fmt::format("{} points", c.ssd.latency_cdf.size()),
            fmt::format("fio QD1 {}k, mean access {:.1f} us", c.ssd.cdf_block_bytes >> 10, c.ssd.access_mean_s * 1e6));
        continue;
      }
      row(t.name + "." + e.key, e.value, e.comment.empty() ? "" : e.comment.front().substr(0, 70));
    }
  fmt::print("\nloopback bandwidth (one writer, one reader): {:.2f} Gbit/s\n", c.loopback.bytes_per_s * 8 / 1e9);
  fmt::print("SSD model vs fio (access {:.1f} us, bandwidth {:.1f} MB/s, parallelism {}):\n", c.ssd.access_mean_s * 1e6,
             c.ssd.bandwidth_Bps / 1e6, c.ssd.parallelism);
  for (const auto& r : fit_table(c)) fmt::print("{}\n", r);
  for (const auto& r : sequential_rows(c)) fmt::print("{}\n", r);
  fmt::print("CPU figures, the medians' derivation and each round's alone (lowest to highest):\n");
  for (const auto& r : cpu_spread_rows(c)) fmt::print("{}\n", r);
  for (const auto& w : c.cpu.warnings) fmt::print("warning: {}\n", w);
  for (const auto& n : c.ssd.notes) fmt::print("note: {}\n", n);
  fmt::print("load average: {} before, {} after\n", c.load_before, c.load_after);
}

// Interrupted (SIGINT, SIGTERM, SIGHUP): clerk realrun's status.
constexpr int kInterruptedStatus = 130;

int calibrate_run(const Request& o);
int run_checked(const Request& o);
}  // namespace

// Exit statuses: 0 written, 2 bad input or a tool, the disk or the kernel
// failed (the machine, as a missing gnuplot is for clerk plot), 3 an internal
// error (a bug), 130 interrupted (SIGINT, SIGTERM or SIGHUP), as clerk
// realrun. 1 is for figures or claims that miss (README), which calibrate
// has none of (probe 8, M5: it was 1 for both). Every exception is caught here.
int calibrate_command(const CalibrateRequest& request) {
  try {
    return run_checked(request);
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clerk calibrate: internal error: " << e.what() << "\nPlease report this as a bug.\n";
  } catch (...) {
    std::cerr << "clerk calibrate: internal error (unknown exception)\nPlease report this as a bug.\n";
  }
  return 3;
}

namespace {
// `--pacing`: the loopback pacing experiment alone; nothing is written.
int pacing_only(const Request& o) {
  install_interrupt_handlers();
  calibrate::PacingSpec spec;
  spec.rounds = o.quick ? 50 : 500;
  const unsigned runs = o.quick ? 1 : 5;
  fmt::print("clerk calibrate --pacing: load average {}\n", load_average());
  try {
    fmt::print("{}", calibrate::pacing_report(calibrate::compare_pacing(spec, runs)));
  } catch (const Interrupted&) {
    std::cerr << "clerk calibrate: interrupted\n";
    return kInterruptedStatus;
  } catch (const std::runtime_error& e) {
    // A tool killed by the interruption's clean-up fails too: interrupted still.
    std::cerr << "clerk calibrate: " << e.what() << "\n";
    return interrupted() ? kInterruptedStatus : 2;
  }
  fmt::print("load average after: {}\n", load_average());
  return 0;
}

// --data: the folder for fio's test file, made when missing (the disk
// phase's create_directories). Checked with --out: an empty name, or a path
// through a regular file, failed only after the CPU and loopback phases.
// "" when it can be made or used, else why not.
std::string data_problem(const std::string& data) {
  namespace fs = std::filesystem;
  if (data.empty()) return "--data: an empty path (give the folder for fio's test file)";
  std::error_code ec;
  // The nearest part of the path that exists must be a folder.
  for (fs::path p = fs::absolute(data, ec); !ec && !p.empty(); p = p.parent_path()) {
    const fs::file_status st = fs::status(p, ec);
    if (ec && st.type() != fs::file_type::not_found)
      return fmt::format("--data {}: '{}': {}", common::shown_text(data), common::shown_text(p.string()), ec.message());
    ec.clear();
    if (st.type() == fs::file_type::not_found) {
      if (p == p.parent_path()) break;
      continue;
    }
    if (st.type() != fs::file_type::directory)
      return fmt::format("--data {}: '{}' is not a folder", common::shown_text(data), common::shown_text(p.string()));
    return {};
  }
  return ec ? fmt::format("--data {}: {}", common::shown_text(data), ec.message()) : std::string();
}

int run_checked(const Request& o) {
  if (o.pacing) return pacing_only(o);
  // Refusals first, before anything is started or written: bad input, then
  // what the machine lacks.
  const std::string out_problem = common::output_path_problem(o.out, "--out");
  if (!out_problem.empty()) {
    std::cerr << "clerk calibrate: " << out_problem << " (run from the source tree or give --out FILE)\n";
    return 2;
  }
  if (const std::string problem = data_problem(o.data); !problem.empty()) {
    std::cerr << "clerk calibrate: " << problem << "\n";
    return 2;
  }
  if (geteuid() != 0) {
    std::cerr << "clerk calibrate: must run as root (it drops the page cache before fio, "
                 "/proc/sys/vm/drop_caches, and reads /proc/slabinfo)\n";
    return 2;
  }
  const auto missing = missing_tools({fio_tool(), nginx_tool(), wrk_tool()});
  if (!missing.empty()) {
    for (const Tool& t : missing)
      std::cerr << "clerk calibrate: " << t.path << " is missing: apt-get install " << t.package << "\n";
    return 2;
  }
  // A killed earlier calibrate's nginx, cgroup and scratch folder: removed
  // (only those of a calibrate that is gone), and said.
  for (const std::string& line : remove_stale_calibrations()) std::cerr << "clerk calibrate: " << line << "\n";
  install_interrupt_handlers();
  // Orphans of a killed child (nginx's workers when the master goes first)
  // become ours, so that stopping a child waits until its whole group is
  // reaped instead of leaving zombies to an init that may not reap them.
  common::SubreaperScope reaper;
  try {
    return calibrate_run(o);
  } catch (const Interrupted&) {
    std::cerr << "clerk calibrate: interrupted; everything it started is stopped, nothing written\n";
    return kInterruptedStatus;
  } catch (const std::runtime_error& e) {
    // A tool, the disk or the kernel failed: the machine, not clerk; or a
    // tool the interruption's clean-up killed: interrupted still.
    std::cerr << "clerk calibrate: " << e.what() << "\n";
    return interrupted() ? kInterruptedStatus : 2;
  }
}
}  // namespace

namespace {
// What the CPU costs are measured under; what could not be read, and why
// (the profile then leaves that key, and tcp_pacing, out).
void print_loopback_tcp(const common::LoopbackTcp& l) {
  const auto known = [](const std::string& v, const std::string& why) { return v.empty() ? "unknown (" + why + ")" : v; };
  fmt::print("  TCP congestion control {}; lo's qdisc {}: {}\n", known(l.congestion_control, l.congestion_source),
             known(l.lo_qdisc, l.qdisc_source),
             l.congestion_control.empty() || l.lo_qdisc.empty()
                 ? models::describe_pacing("")
                 : models::describe_pacing(models::loopback_pacing(l.congestion_control, l.lo_qdisc)));
}

// The nginx and wrk runs with loopback unpaced (unpaced_loopback.h).
CpuMeasurement measure_cpu_unpaced(Calibration& c, const std::string& run_folder) {
  const UnpacedLoopback unpaced(run_folder);
  c.unpaced_with = unpaced.used();
  fmt::print("  {} paces loopback itself: these runs use {} (net.ipv4.tcp_congestion_control, {} again after them);\n"
             "  pacing is measured apart below\n",
             unpaced.machines(), unpaced.used(), unpaced.machines());
  std::fflush(stdout);
  return measure_cpu(c.cpu_plan, &c.nginx_version);
}

// What the machine's pacing costs per byte: its congestion control against
// the unpaced one on one loopback connection (loopback_pacing.h), each set
// on the sockets themselves.
void measure_pacing(Calibration& c, bool quick) {
  phase("TCP's own pacing on loopback: " + c.loopback_tcp.congestion_control + " against " + c.unpaced_with);
  PacingSpec spec;
  spec.rounds = quick ? 50 : 200;
  c.pacing = compare_pacing(spec, quick ? 3 : 5, c.unpaced_with, c.loopback_tcp.congestion_control);
  fmt::print("{}", pacing_report(c.pacing));
  std::fflush(stdout);
}

int calibrate_run(const Request& o) {
  const auto t0 = Clock::now();
  const common::TempDir scratch = calibrate_temp_dir();
  Calibration c;
  c.quick = o.quick;
  c.date = today_utc();
  c.load_before = load_average();
  c.kernel = kernel_release();
  c.logical_cpus = logical_cpus();
  fmt::print("clerk calibrate{}: {} CPUs, load average {}\n", o.quick ? " --quick" : "", c.logical_cpus, c.load_before);

  phase("CPU costs: nginx and wrk on loopback");
  c.loopback_tcp = common::this_loopback_tcp();
  print_loopback_tcp(c.loopback_tcp);
  // Five short rounds rather than three long ones: the machine's load
  // drifts, and the median of more rounds resists it better.
  c.cpu_plan.seconds = o.quick ? 1 : 3;
  c.cpu_plan.runs = o.quick ? 3 : 5;
  c.cpu_plan.workers = static_cast<int>(logical_cpus());  // every CPU busy, as under load
  const bool paces_itself = !c.loopback_tcp.congestion_control.empty() && !c.loopback_tcp.lo_qdisc.empty() &&
                            models::loopback_pacing(c.loopback_tcp.congestion_control, c.loopback_tcp.lo_qdisc) == "internal";
  const CpuMeasurement measured = paces_itself ? measure_cpu_unpaced(c, scratch.path()) : measure_cpu(c.cpu_plan, &c.nginx_version);
  c.cpu_raw = measured.raw;
  c.cpu = derive_cpu_costs(c.cpu_raw);
  c.cpu_rounds = derive_rounds(measured.rounds);
  if (paces_itself) measure_pacing(c, o.quick);

  phase("woken for a connection another thread takes (the model's wakeup)");
  {
    const unsigned many = std::max(2u, c.logical_cpus);
    const std::uint64_t n = o.quick ? 2000 : 20000;
    std::vector<double> per_round;
    for (int round = 0; round < (o.quick ? 3 : 5); ++round) {
      throw_if_interrupted();
      HerdResult h;
      h.one = herd_run(1, n);
      h.many = herd_run(many, n);
      h.wakeup_s = herd_wakeup_s(h.one, h.many);
      fmt::print("  round {}: {} connections, acceptors' CPU {:.3f} s alone, {:.3f} s with {} ({} EAGAIN): {:.2f} us\n",
                 round + 1, n, h.one.acceptors_cpu_s, h.many.acceptors_cpu_s, many, h.many.eagain, h.wakeup_s * 1e6);
      std::fflush(stdout);
      c.herd.push_back(h);
      per_round.push_back(h.wakeup_s);
    }
    std::sort(per_round.begin(), per_round.end());
    c.wakeup_s = per_round[per_round.size() / 2];
  }

  phase("loopback TCP");
  c.ping_round_trips = o.quick ? 2000 : 20000;
  c.ping = loopback_ping_pong(c.ping_round_trips);
  fmt::print("  ping-pong: {} round trips, median {:.2f} us, p99 {:.2f} us\n", c.ping.round_trips,
             c.ping.median_rtt_s * 1e6, c.ping.p99_rtt_s * 1e6);
  c.loopback = loopback_bandwidth(o.quick ? 0.5 : 3);
  fmt::print("  bandwidth: {:.2f} Gbit/s\n", c.loopback.bytes_per_s * 8 / 1e9);
  c.loopback_mtu = loopback_mtu();

  c.memory = memory_facts();
  c.tcp_wmem_max = tcp_wmem_max();
  c.pipe_size = default_pipe_size();

  phase("disk: fio on " + o.data);
  std::filesystem::create_directories(o.data);
  c.data_dir = std::filesystem::canonical(o.data).string();
  c.device = block_device_of(c.data_dir);
  c.kernel_facts = this_kernel(c.device.name, c.device.fs_device);
  fmt::print("  Linux {}: {} scheduler, base values {}; HZ {}; vfs_cache_pressure {}; nr_requests {}\n",
             c.kernel_facts.release, c.kernel_facts.sched.policy, c.kernel_facts.sched.source,
             c.kernel_facts.hz ? std::to_string(c.kernel_facts.hz) : "unknown", c.kernel_facts.vfs_cache_pressure,
             c.kernel_facts.queue.nr_requests);
  c.fio_version = run_and_capture({fio_tool().path, "--version"});
  while (!c.fio_version.empty() && std::isspace(static_cast<unsigned char>(c.fio_version.back()))) c.fio_version.pop_back();
  c.fio_plan.file = c.data_dir + "/clerk-calibrate-fio.dat";
  c.fio_plan.file_bytes = o.quick ? 512ULL << 20 : 4ULL << 30;
  c.fio_plan.block_sizes = read_sizes(c.device.read_ahead_kb);
  c.fio_plan.seconds = o.quick ? 0.5 : 4;
  fmt::print("  /dev/{}, read_ahead_kb {}, scheduler {}; test file {} ({} MiB)\n", c.device.name, c.device.read_ahead_kb,
             c.device.scheduler, c.fio_plan.file, c.fio_plan.file_bytes >> 20);
  // The test file is removed unless --keep, also when a step below fails.
  struct FileGuard {
    std::string path;
    bool keep;
    ~FileGuard() {
      if (!keep) std::remove(path.c_str());
    }
  } guard{c.fio_plan.file, o.keep};
  if (prepare_fio_file(c.fio_plan)) fmt::print("  wrote the test file\n");
  // Flush what is dirty (the CPU phase's files, anything else written) and
  // drop the cache, so that writeback and reclaim do not run under the reads.
  if (!drop_caches()) throw std::runtime_error("cannot drop the page cache (/proc/sys/vm/drop_caches)");
  c.fio = run_fio(c.fio_plan, scratch.path());
  c.ssd = fit_ssd(c.fio);
  // Readahead's sequential reads, after the random ones: the file's pages
  // are not cached (O_DIRECT), and fio drops them anyway (--invalidate=1).
  // Three times: the disk is shared, and its busy-time rate moves with what
  // else reads it.
  for (int i = 0; i < 3; ++i) c.seq_runs.push_back(run_sequential_read(c.fio_plan, c.device.name, scratch.path()));
  c.seq = c.seq_runs[median_seq_run(c.seq_runs)];
  c.seq_fit = fit_sequential(c.seq, c.ssd);
  // The same stream's reads one at a time (seq_read.h): what the model's
  // sequential rate is at depth 1.
  for (int i = 0; i < 3; ++i)
    c.seq_qd1_runs.push_back(run_sequential_qd1(c.fio_plan, qd1_block_bytes(c.seq_fit), scratch.path()));
  c.seq_qd1 = c.seq_qd1_runs[median_qd1_run(c.seq_qd1_runs)];
  phase("page cache fills: a cold read in a memory cgroup, less a cached one");
  c.fill = measure_cache_fill(c.fio_plan.file, c.fio_plan.file_bytes / 8);
  fmt::print("  cold: {} MiB, {:.2f} s busy CPU ({:.2f} s the reader's); cached: {} MiB, {:.2f} s ({:.2f} s); "
             "{:.3f} ns per byte, {:.3f} ns in the reader{}\n",
             c.fill.cold_bytes >> 20, c.fill.cold_busy_s, c.fill.cold_reader_s, c.fill.warm_bytes >> 20, c.fill.warm_busy_s,
             c.fill.warm_reader_s, c.fill.per_byte_s * 1e9, c.fill.reader_per_byte_s * 1e9,
             c.fill.note.empty() ? "" : " (" + c.fill.note + ")");
  c.load_after = load_average();

  const Profile profile = build_profile(c);
  const std::string text = render_profile(profile);
  // Check that the simulator loads it before it replaces anything.
  const std::string trial = std::filesystem::absolute(o.out).parent_path().string() + "/.calibrate-check-" +
                            std::to_string(getpid()) + ".toml";
  common::write_file_atomically(trial, text);
  try {
    load_profile(trial, scratch.path());
  } catch (const models::ConfigError& e) {
    std::remove(trial.c_str());
    throw std::runtime_error(std::string("the profile does not load (a bug in calibrate): ") + e.what());
  }
  std::remove(trial.c_str());
  common::write_file_atomically(o.out, text);

  print_table(c, profile);
  const double took = std::chrono::duration<double>(Clock::now() - t0).count();
  fmt::print("\nwrote {} ({:.0f} s){}\n", std::filesystem::absolute(o.out).string(), took,
             o.keep ? fmt::format("; kept {}", c.fio_plan.file) : "");
  return 0;
}
}  // namespace

}  // namespace testbed
