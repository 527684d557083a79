#include "testbed/calibrate/kernel_facts.h"

#include <sys/mount.h>
#include <unistd.h>
#include <zlib.h>

#include <fmt/format.h>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "common/number_text.h"

namespace testbed::calibrate {
namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  return s.substr(b);
}

// Digits only, within T; false for anything else (empty, a sign, too large).
template <class T>
bool whole_number(const std::string& s, T& out) {
  const auto v = common::number_text<T>(s);
  if (v) out = *v;
  return v.has_value();
}

// A file holding one non-negative number; false when absent or malformed.
bool read_number(const common::ProcFiles& files, const std::string& path, std::uint64_t& out) {
  return whole_number(trimmed(files.read(path)), out);
}

std::vector<unsigned> expand_cpu_list(const std::string& list) {
  std::vector<unsigned> cpus;
  std::istringstream in(trimmed(list));
  for (std::string part; std::getline(in, part, ',');) {
    unsigned a = 0, b = 0;
    const std::size_t dash = part.find('-');
    if (!whole_number(trimmed(part.substr(0, dash)), a)) return {};
    if (dash == std::string::npos)
      b = a;
    else if (!whole_number(trimmed(part.substr(dash + 1)), b))
      return {};
    // At most 65,536 CPUs in a range; the counter is wider than `b`, so a
    // range ending at the largest unsigned still ends.
    if (b >= a && b - a < 65536)
      for (std::uint64_t c = a; c <= b; ++c) cpus.push_back(static_cast<unsigned>(c));
  }
  return cpus;
}

// "CONFIG_HZ=250" of a kernel config text; 0 if absent.
unsigned config_hz(const std::string& config) {
  std::istringstream in(config);
  for (std::string line; std::getline(in, line);)
    if (unsigned hz = 0; line.rfind("CONFIG_HZ=", 0) == 0) return whole_number(trimmed(line.substr(10)), hz) ? hz : 0;
  return 0;
}

// "se.slice    :    1400000" of /proc/PID/sched.
bool sched_slice(const std::string& text, std::uint64_t& out) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("se.slice", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) return false;
    return whole_number(trimmed(line.substr(colon + 1)), out);
  }
  return false;
}

std::string tunable_scaling_name(std::uint64_t v) { return v == 0 ? "none" : v == 2 ? "linear" : "log"; }

// A scaled sysctl read from the first of `paths` that holds one, divided by
// the factor; `source` says which.
bool read_scaled(const common::ProcFiles& files, const std::vector<std::string>& paths, unsigned factor,
                 std::uint64_t& normalized, std::string& source) {
  for (const std::string& p : paths) {
    std::uint64_t v = 0;
    if (!read_number(files, p, v)) continue;
    normalized = v / factor;
    source += fmt::format("{}{} = {} / {}", source.empty() ? "" : "; ", p, v, factor);
    return true;
  }
  return false;
}

}  // namespace

bool parse_release(const std::string& release, int& major, int& minor) {
  std::istringstream in(release);
  char dot = 0;
  if (!(in >> major >> dot >> minor) || dot != '.') return false;
  return true;
}

unsigned sysctl_factor(unsigned online_cpus, const std::string& tunable_scaling) {
  const unsigned cpus = std::min(std::max(online_cpus, 1u), 8u);
  if (tunable_scaling == "none") return 1;
  if (tunable_scaling == "linear") return cpus;
  unsigned log2 = 0;
  while ((2u << log2) <= cpus) ++log2;
  return 1 + log2;
}

unsigned count_cpu_list(const std::string& list) { return static_cast<unsigned>(expand_cpu_list(list).size()); }

SchedFacts read_sched(const common::ProcFiles& files, int major, int minor, unsigned online_cpus) {
  SchedFacts s;
  s.policy = std::make_pair(major, minor) >= std::make_pair(6, 6) ? "eevdf" : "cfs";
  std::uint64_t scaling = 1;
  if (read_number(files, "/sys/kernel/debug/sched/tunable_scaling", scaling) ||
      read_number(files, "/proc/sys/kernel/sched_tunable_scaling", scaling))
    s.tunable_scaling = tunable_scaling_name(scaling);
  s.factor = sysctl_factor(online_cpus, s.tunable_scaling);
  const std::string factor_text =
      fmt::format("factor {} = get_update_sysctl_factor() for {} online CPUs, tunable_scaling {}", s.factor,
                  online_cpus, s.tunable_scaling);
  if (s.policy == "eevdf") {
    std::uint64_t slice = 0;
    if (read_scaled(files, {"/sys/kernel/debug/sched/base_slice_ns"}, s.factor, s.base_slice_ns, s.source)) {
    } else if (sched_slice(files.read("/proc/self/sched"), slice)) {
      s.base_slice_ns = slice / s.factor;
      s.source = fmt::format("/proc/self/sched se.slice = {} / {}", slice, s.factor);
    } else {
      s.base_slice_ns = std::make_pair(major, minor) >= std::make_pair(6, 15) ? 700000 : 750000;
      s.source = fmt::format("kernel/sched/fair.c's default for {}.{} (debugfs and /proc/self/sched unreadable)",
                             major, minor);
    }
    s.source += "; " + factor_text;
    return s;
  }
  const bool read = read_scaled(files, {"/sys/kernel/debug/sched/latency_ns", "/proc/sys/kernel/sched_latency_ns"},
                                s.factor, s.latency_ns, s.source) &&
                    read_scaled(files,
                                {"/sys/kernel/debug/sched/min_granularity_ns",
                                 "/proc/sys/kernel/sched_min_granularity_ns"},
                                s.factor, s.min_granularity_ns, s.source) &&
                    read_scaled(files,
                                {"/sys/kernel/debug/sched/wakeup_granularity_ns",
                                 "/proc/sys/kernel/sched_wakeup_granularity_ns"},
                                s.factor, s.wakeup_granularity_ns, s.source);
  if (!read) {
    s.latency_ns = 6000000;
    s.min_granularity_ns = 750000;
    s.wakeup_granularity_ns = 1000000;
    s.source = "kernel/sched/fair.c's defaults (normalized_sysctl_sched_*; debugfs and sysctls unreadable)";
  }
  s.source += "; " + factor_text;
  return s;
}

std::string gunzip(const std::string& bytes) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buf[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string();
}

unsigned read_hz(const common::ProcFiles& files, const std::string& release, std::string& source) {
  const std::string boot = "/boot/config-" + release;
  if (const unsigned hz = config_hz(files.read(boot))) {
    source = boot + " CONFIG_HZ";
    return hz;
  }
  if (const unsigned hz = config_hz(gunzip(files.read("/proc/config.gz")))) {
    source = "/proc/config.gz CONFIG_HZ";
    return hz;
  }
  source = "not discoverable (no " + boot + ", no /proc/config.gz)";
  return 0;
}

namespace {
// The y-valued key of a kernel config among `keys`, "" if none.
std::string config_choice(const std::string& config, const std::vector<std::pair<std::string, std::string>>& keys) {
  std::istringstream in(config);
  for (std::string line; std::getline(in, line);)
    for (const auto& [key, name] : keys)
      if (trimmed(line) == key + "=y") return name;
  return "";
}
bool preempt_name(const std::string& s) { return s == "none" || s == "voluntary" || s == "full" || s == "lazy"; }
}  // namespace

std::string read_preempt(const common::ProcFiles& files, const std::string& release, std::string& source) {
  // debugfs: "none (voluntary) full lazy", the mode in force in parentheses.
  const std::string debug = files.read("/sys/kernel/debug/sched/preempt");
  const auto open = debug.find('('), close = debug.find(')');
  if (open != std::string::npos && close > open && preempt_name(debug.substr(open + 1, close - open - 1))) {
    source = "/sys/kernel/debug/sched/preempt";
    return debug.substr(open + 1, close - open - 1);
  }
  const std::string boot = "/boot/config-" + release;
  std::string config = files.read(boot), config_source = boot;
  if (config.find("CONFIG_PREEMPT") == std::string::npos) {
    config = gunzip(files.read("/proc/config.gz"));
    config_source = "/proc/config.gz";
  }
  if (config.empty()) {
    source = "not discoverable (no debugfs, no " + boot + ", no /proc/config.gz)";
    return "";
  }
  const bool dynamic = !config_choice(config, {{"CONFIG_PREEMPT_DYNAMIC", "y"}}).empty();
  std::istringstream cmdline(files.read("/proc/cmdline"));
  for (std::string word; cmdline >> word;)
    if (dynamic && word.rfind("preempt=", 0) == 0 && preempt_name(word.substr(8))) {
      source = "/proc/cmdline " + word + " (" + config_source + ": CONFIG_PREEMPT_DYNAMIC=y)";
      return word.substr(8);
    }
  const std::string mode = config_choice(config, {{"CONFIG_PREEMPT_NONE", "none"},
                                                  {"CONFIG_PREEMPT_VOLUNTARY", "voluntary"},
                                                  {"CONFIG_PREEMPT", "full"},
                                                  {"CONFIG_PREEMPT_LAZY", "lazy"}});
  if (mode.empty()) {
    source = "not discoverable (" + config_source + " names no CONFIG_PREEMPT_* model)";
    return "";
  }
  const std::string key = mode == "full" ? "CONFIG_PREEMPT" : mode == "none" ? "CONFIG_PREEMPT_NONE"
                          : mode == "voluntary"               ? "CONFIG_PREEMPT_VOLUNTARY"
                                                              : "CONFIG_PREEMPT_LAZY";
  source = config_source + " " + key + "=y" + (dynamic ? ", CONFIG_PREEMPT_DYNAMIC=y and no preempt= on /proc/cmdline" : "");
  return mode;
}

TopologyFacts read_topology(const common::ProcFiles& files) {
  TopologyFacts t;
  const std::vector<unsigned> cpus = expand_cpu_list(files.read("/sys/devices/system/cpu/online"));
  std::set<std::uint64_t> packages;
  std::set<std::pair<std::uint64_t, std::uint64_t>> cores;
  for (unsigned c : cpus) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu{}/topology/", c);
    std::uint64_t package = 0, core = 0;
    if (!read_number(files, dir + "physical_package_id", package) || !read_number(files, dir + "core_id", core)) continue;
    packages.insert(package);
    cores.insert({package, core});
  }
  t.logical = static_cast<unsigned>(cpus.size());
  if (cores.empty() || t.logical % cores.size() != 0 || cores.size() % packages.size() != 0) {
    t.sockets = 1;
    t.cores_per_socket = std::max(1u, t.logical);
    t.threads_per_core = 1;
    t.source = "topology unreadable or uneven: one socket of single-thread cores";
    return t;
  }
  t.sockets = static_cast<unsigned>(packages.size());
  t.cores_per_socket = static_cast<unsigned>(cores.size() / packages.size());
  t.threads_per_core = static_cast<unsigned>(t.logical / cores.size());
  t.source = fmt::format("/sys/devices/system/cpu/cpu*/topology of the {} online CPUs: {} physical_package_id, {} "
                         "package:core_id pairs",
                         t.logical, packages.size(), cores.size());
  return t;
}

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!trimmed(line).empty()) out.push_back(trimmed(line));
  return out;
}

// The virtio device holding `disk`, its one queue's IRQ and that IRQ's CPU.
void find_irq_cpu(const common::ProcFiles& files, const std::string& disk, QueueFacts& q) {
  const std::string bus = "/sys/bus/virtio/devices/";
  std::string virtio;
  for (const std::string& v : lines_of(files.read(bus)))
    for (const std::string& b : lines_of(files.read(bus + v + "/block/")))
      if (b == disk) virtio = v;
  if (virtio.empty()) return;
  const std::string name = virtio + "-req.0";
  for (const std::string& line : lines_of(files.read("/proc/interrupts"))) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || line.size() < name.size() ||
        line.compare(line.size() - name.size(), name.size(), name) != 0)
      continue;
    const std::string irq = trimmed(line.substr(0, colon));
    const std::string path = "/proc/irq/" + irq + "/effective_affinity_list";
    const std::vector<unsigned> cpus = expand_cpu_list(trimmed(files.read(path)));
    if (cpus.size() != 1) return;
    q.irq_cpu = static_cast<int>(cpus[0]);
    q.irq_source = fmt::format("{}: IRQ {} ({}) of /proc/interrupts, {} = {}", bus + virtio + "/block/" + disk, irq,
                               name, path, cpus[0]);
    return;
  }
}

}  // namespace

QueueFacts read_queue(const common::ProcFiles& files, const std::string& disk) {
  QueueFacts q;
  q.device = disk;
  const std::string dir = "/sys/block/" + disk + "/queue/";
  read_number(files, dir + "nr_requests", q.nr_requests);
  read_number(files, dir + "read_ahead_kb", q.read_ahead_kb);
  read_number(files, dir + "max_sectors_kb", q.max_sectors_kb);
  const std::string sched = trimmed(files.read(dir + "scheduler"));
  const auto open = sched.find('['), close = sched.find(']');
  q.scheduler = open != std::string::npos && close > open ? sched.substr(open + 1, close - open - 1) : sched;
  read_number(files, dir + "rq_affinity", q.rq_affinity);
  q.hw_queues = static_cast<unsigned>(lines_of(files.read("/sys/block/" + disk + "/mq/")).size());
  if (q.hw_queues == 1) find_irq_cpu(files, disk, q);
  return q;
}

KernelFacts read_kernel_facts(const common::ProcFiles& files, const std::string& disk, const std::string& fs_device) {
  KernelFacts k;
  k.release = trimmed(files.read("/proc/sys/kernel/osrelease"));
  parse_release(k.release, k.major, k.minor);
  k.topology = read_topology(files);
  k.sched = read_sched(files, k.major, k.minor, k.topology.logical);
  k.hz = read_hz(files, k.release, k.hz_source);
  k.preempt = read_preempt(files, k.release, k.preempt_source);
  std::uint64_t pressure = 0;
  if (read_number(files, "/proc/sys/vm/vfs_cache_pressure", pressure)) k.vfs_cache_pressure = static_cast<unsigned>(pressure);
  k.queue = read_queue(files, disk);
  std::uint64_t blks = 0;
  k.fs_device = fs_device;
  if (read_number(files, "/sys/fs/ext4/" + fs_device + "/inode_readahead_blks", blks))
    k.inode_readahead_blks = static_cast<unsigned>(blks);
  return k;
}

KernelFacts this_kernel(const std::string& disk, const std::string& fs_device) {
  // debugfs holds the scheduler's tunables (5.13+); under kernel lockdown
  // its files refuse reads (EPERM) and the readers fall back.
  const auto files = common::files_under("");
  const bool absent = files->read("/sys/kernel/debug/").empty();
  const bool mounted = absent && ::geteuid() == 0 && ::mount("debugfs", "/sys/kernel/debug", "debugfs", 0, nullptr) == 0;
  KernelFacts k = read_kernel_facts(*files, disk, fs_device);
  if (mounted) ::umount2("/sys/kernel/debug", MNT_DETACH);
  return k;
}

}  // namespace testbed::calibrate
