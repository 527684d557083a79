#include "models/scenario/config_loader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include "common/kernel_name.h"
#include "models/os/ext4_layout.h"
#include "models/os/tcp_pacing.h"
#include "models/scenario/dataset_fit.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/key_reference.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/limits.h"
#include "models/scenario/section.h"
#include "models/scenario/units.h"
#include "models/server/nginx_word.h"
#include "models/server/nginx_versions.h"
#include "models/server/pool_choice.h"
#include "models/server/nowait_probe.h"

namespace models {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

namespace {

using namespace section_text;
using limits::kMaxBlockBytes;

// The CPU topology: sockets x cores x SMT threads, as lscpu reports them;
// one socket of single-thread cores when not given.
void read_cpu_topology(Section& cpu, HardwareSpec& hw) {
  CpuTopology& t = hw.topology;
  t.sockets = static_cast<std::uint32_t>(cpu.integer("sockets", 1, 1, limits::kMaxSockets));
  t.threads_per_core = static_cast<std::uint32_t>(cpu.integer("threads_per_core", 1, 1, limits::kMaxThreadsPerCore));
  const std::int64_t cores = cpu.integer("cores_per_socket", 0, 1, 4096);
  t.cores_per_socket = cores > 0 ? static_cast<std::uint32_t>(cores)
                                 : std::max<std::uint32_t>(1, hw.logical_cpus / (t.sockets * t.threads_per_core));
  if (t.cpus() != hw.logical_cpus)
    cpu.fail(cpu.has("cores_per_socket") ? "cores_per_socket" : "sockets",
             fmt::format("sockets x cores_per_socket x threads_per_core = {} must equal logical_cpus = {}", t.cpus(),
                         hw.logical_cpus));
}

// The kernel's CPU scheduler: kernel.scheduler picks the model
// (models/os/cpu.h's registry), the sched_* keys are the kernel's sysctls
// before scaling by the CPU count (normalized_sysctl_sched_*), hz is CONFIG_HZ.
// CFS re-picking the running task without set_next_entity() (678d5718d8d0).
constexpr LinuxRelease kCfsRepickKeepsSliceSince{3, 15};

void read_scheduler(Section& kernel, KernelSpec& k) {
  k.release = kernel.string("release", "");
  SchedSpec& s = k.sched;
  s.policy = kernel.choice("scheduler", "processor-sharing", {"processor-sharing", "cfs", "eevdf"});
  s.latency_s = kernel.duration("sched_latency", s.latency_s, limits::kMinSchedGranularitySeconds, false,
                                limits::kMaxSchedGranularitySeconds);
  s.min_granularity_s = kernel.duration("sched_min_granularity", s.min_granularity_s,
                                        limits::kMinSchedGranularitySeconds, false, limits::kMaxSchedGranularitySeconds);
  s.wakeup_granularity_s =
      kernel.duration("sched_wakeup_granularity", s.wakeup_granularity_s, 0, false, limits::kMaxSchedGranularitySeconds);
  s.base_slice_s = kernel.duration("sched_base_slice", s.base_slice_s, limits::kMinSchedGranularitySeconds, false,
                                   limits::kMaxSchedGranularitySeconds);
  s.nr_latency = static_cast<std::uint32_t>(kernel.integer("sched_nr_latency", s.nr_latency, 1, 1000));
  s.hz = static_cast<std::uint32_t>(kernel.integer("hz", s.hz, limits::kMinHz, limits::kMaxHz));
  s.tunable_scaling_log = kernel.choice("sched_tunable_scaling", "log", {"log", "none"}) == "log";
  s.periodic_balance = kernel.flag("sched_periodic_balance", s.periodic_balance);
  s.migration_cost_s =
      kernel.duration("sched_migration_cost", s.migration_cost_s, 0, false, limits::kMaxSchedGranularitySeconds);
  // The preemption model, named as the preempt= boot parameter names it
  // (cpu_scheduler.h). "full" is the model as before the key.
  const std::string preempt = kernel.choice("preempt", "full", {"none", "voluntary", "full"});
  s.preempt = preempt == "none"        ? PreemptModel::kNone
              : preempt == "voluntary" ? PreemptModel::kVoluntary
                                       : PreemptModel::kFull;
  // CFS's re-pick of the running task keeps its slice from 3.15 (678d5718d8d0,
  // sched_policy.h); a release not named or not parsed: 3.13's, the defaults'.
  const std::optional<LinuxRelease> r = parse_linux_release(k.release);
  s.repick_keeps_slice = r && r->at_least(kCfsRepickKeepsSliceSince);
}

// [block]: the request queue in front of each drive (models/hardware/block_queue.h),
// defaults of Linux 3.13's single-queue block layer; [md]: raid10's read_balance().
void read_block(Section& root, HardwareSpec& hw) {
  Section b = root.sub("block");
  BlockQueueSpec& q = hw.block;
  hw.block_queue = b.flag("request_queue", true);
  std::vector<std::string> names;
  for (const ElevatorChoice& c : elevator_choices()) names.emplace_back(c.name);
  q.scheduler = b.choice("scheduler", "deadline", names);
  q.nr_requests = static_cast<std::uint32_t>(b.integer("nr_requests", 128, 4, limits::kMaxQueueRequests));
  q.queue_depth = static_cast<std::uint32_t>(b.integer("queue_depth", 31, 1, limits::kMaxQueueRequests));
  q.max_sectors_kb = static_cast<std::uint64_t>(b.integer("max_sectors_kb", 512, 4, kMaxBlockBytes / 1024));
  q.deadline.read_expire_s = b.duration("read_expire", 0.5, 0);
  q.deadline.write_expire_s = b.duration("write_expire", 5.0, 0);
  q.deadline.fifo_batch = static_cast<std::uint32_t>(b.integer("fifo_batch", 16, 1, limits::kMaxQueueRequests));
  q.deadline.writes_starved = static_cast<std::uint32_t>(b.integer("writes_starved", 2, 0, limits::kMaxQueueRequests));
  hw.block_irq_cpu = static_cast<std::int32_t>(b.integer("irq_cpu", -1, -1, 4095));
  if (hw.block_irq_cpu >= static_cast<std::int32_t>(hw.logical_cpus))
    b.fail("irq_cpu", "must name one of the [cpu] logical_cpus (0 to logical_cpus - 1), or be -1");
  b.done();
  // read_expire reaches each drive through disks/hdd.h's hdd_as_built.

  Section md = root.sub("md");
  std::vector<std::string> versions;
  for (const ReadBalanceChoice& c : read_balance_choices()) versions.emplace_back(c.name);
  hw.md_read_balance = md.choice("read_balance", "3.x", versions);
  md.done();
}

// The kernel facts a hardware profile names beside the scheduler
// (kernel_profile.h), as `clerk calibrate` writes them: vm.vfs_cache_pressure,
// the slab objects and ext4's inode_readahead_blks in [kernel], the data
// device's request queue in [block].
void read_profile_kernel(Section& kernel, KernelProfile& k) {
  k.vfs_cache_pressure =
      static_cast<std::uint32_t>(kernel.integer("vfs_cache_pressure", 100, 0, limits::kMaxVfsCachePressure));
  k.dentry_objsize = kernel.size("dentry_objsize", k.dentry_objsize, limits::kMinSlabObject, false, limits::kMaxSlabObject);
  k.inode_objsize = kernel.size("inode_objsize", k.inode_objsize, limits::kMinSlabObject, false, limits::kMaxSlabObject);
  k.inode_readahead_blks = static_cast<std::uint32_t>(
      kernel.integer("inode_readahead_blks", k.inode_readahead_blks, 1, limits::kMaxInodeReadaheadBlks));
  if (k.inode_readahead_blks & (k.inode_readahead_blks - 1))
    kernel.fail("inode_readahead_blks", "must be a power of two (ext4 refuses others)");
}

// Loopback's TCP as the profile's [cpu] costs were measured under
// (host.h's KernelSpec; models/os/tcp_pacing.h): for reports only, the model
// does not use them. Each is a kernel name or absent; tcp_pacing, when
// given with the other two, must be what they make it.
void read_loopback_tcp(Section& kernel, KernelSpec& k) {
  const std::string name_range = "a kernel name: 1 to 15 of a-z, 0-9, _ and -";
  for (auto [key, out] : {std::pair{"tcp_congestion_control", &k.tcp_congestion_control}, std::pair{"lo_qdisc", &k.lo_qdisc}}) {
    *out = kernel.string(key, "", false, KeyType::kString, name_range);
    if (kernel.has(key) && !common::is_kernel_name(*out))
      kernel.fail(key, "must be a name as the kernel writes it (1 to 15 of a-z, 0-9, _ and -), like \"bbr\" or \"noqueue\"");
  }
  const std::vector<std::string> pacings{"internal", "fq", "none"};
  k.tcp_pacing = kernel.string("tcp_pacing", "", false, KeyType::kChoice, section_text::quoted_list(pacings));
  if (!kernel.has("tcp_pacing")) return;
  if (std::find(pacings.begin(), pacings.end(), k.tcp_pacing) == pacings.end())
    kernel.fail("tcp_pacing", "must be one of " + section_text::quoted_list(pacings) + " (got \"" + k.tcp_pacing + "\")");
  if (k.tcp_congestion_control.empty() || k.lo_qdisc.empty())
    kernel.fail("tcp_pacing", "needs tcp_congestion_control and lo_qdisc beside it (it follows from them)");
  const std::string expected = loopback_pacing(k.tcp_congestion_control, k.lo_qdisc);
  if (k.tcp_pacing != expected)
    kernel.fail("tcp_pacing", fmt::format("is \"{}\" with tcp_congestion_control \"{}\" and lo_qdisc \"{}\" "
                                          "(models/os/tcp_pacing.h), not \"{}\"",
                                          expected, k.tcp_congestion_control, k.lo_qdisc, k.tcp_pacing));
}

// [disk] mount and [disks.NAME] mount: an absolute path.
std::string read_mount(Section& disk, const std::string& fallback) {
  const std::string mount = disk.string("mount", fallback);
  if (mount.empty() || mount[0] != '/' || (mount.size() > 1 && mount.back() == '/'))
    disk.fail("mount", "must be an absolute path without a trailing slash, like \"/mnt/disk1\"");
  return mount;
}

// [disks.NAME]: another independent disk, with [disk]'s keys (its type's)
// and its mount point; in-memory kinds have no place here, and mounts are
// unique (one file system per mount point).
void read_more_disks(Section& root, const LayeredToml& doc, HardwareSpec& hw) {
  Section disks = root.sub("disks");
  disks.declare("NAME", KeyType::kTable, "");
  for (const std::string& name : doc.children("disks")) {
    Section d = disks.sub(name, "NAME");
    if (!doc.find(d.path()) || !doc.find(d.path())->is_table()) disks.fail(name, "must be a table");
    if (name == "disk" || name.find('.') != std::string::npos)
      disks.fail(name, "is no name for one of [disks] (\"disk\" is [disk]'s in the figures; no dots)");
    const DiskKind& kind = *find_disk_kind(d.choice("type", disk_kinds().front()->name, disk_kind_names()));
    if (kind.in_memory) d.fail("type", "\"" + std::string(kind.name) + "\" is no device: [disks.NAME] are disks");
    HardwareSpec::NamedDisk out{name, read_mount(d, "/mnt/" + name), {}};
    d.set_when("type = \"" + std::string(kind.name) + "\"");
    out.spec = kind.read(d);
    d.done();
    if (out.mount == hw.disk_mount) d.fail("mount", "is [disk]'s mount point too");
    for (const HardwareSpec::NamedDisk& before : hw.disks)
      if (before.mount == out.mount) d.fail("mount", "is [disks." + before.name + "]'s mount point too");
    hw.disks.push_back(std::move(out));
  }
  if (!hw.disks.empty() && disk_kind(hw.disk).in_memory)
    disks.fail(hw.disks.front().name, "needs a [disk] that is a device (the first of the set holds the root)");
}

void read_hardware(Section& root, const LayeredToml& doc, Scenario& sc) {
  HardwareSpec& hw = sc.hardware;
  Section cpu = root.sub("cpu");
  hw.logical_cpus = static_cast<std::uint32_t>(cpu.integer("logical_cpus", 1, 1, 4096, true));
  hw.costs.request = cpu.duration("request", 0, 0);
  hw.costs.sendfile_byte = cpu.duration("sendfile_byte", 0, 0, false, limits::kMaxPerByteSeconds);
  hw.costs.cache_fill_byte = cpu.duration("cache_fill_byte", 0, 0, false, limits::kMaxPerByteSeconds);
  // Not given: all of cache_fill_byte in the reader (-1, so that SimGrid can refuse the key by name).
  const bool reader_split = cpu.has("cache_fill_reader_byte");
  const double reader_byte =
      cpu.duration("cache_fill_reader_byte", hw.costs.cache_fill_byte, 0, false, limits::kMaxPerByteSeconds);
  if (reader_byte > hw.costs.cache_fill_byte)
    cpu.fail("cache_fill_reader_byte", "must not exceed cache_fill_byte (the reader's part of it)");
  hw.costs.cache_fill_reader_byte = reader_split ? reader_byte : -1;
  hw.costs.accept = cpu.duration("accept", 0, 0);
  hw.costs.wakeup = cpu.duration("wakeup", 0, 0);
  hw.costs.event = cpu.duration("event", 0, 0);
  // Without them a pool task costs what it did before they existed: an
  // event when posted and one when completed, in the worker; one in the pool thread.
  hw.costs.pool_worker = cpu.duration("pool_worker", 2 * hw.costs.event, 0);
  hw.costs.pool_thread = cpu.duration("pool_thread", hw.costs.event, 0);
  // The RWF_NOWAIT probe and io_uring (nowait_probe.h); defaults measured
  // on the project's machine (host.h).
  hw.costs.nowait_probe = cpu.duration("nowait_probe", hw.costs.nowait_probe, 0);
  hw.costs.read_copy_byte = cpu.duration("read_copy_byte", hw.costs.read_copy_byte, 0, false, limits::kMaxPerByteSeconds);
  hw.costs.uring_op = cpu.duration("uring_op", hw.costs.uring_op, 0);
  hw.costs.client_connect = cpu.duration("client_connect", 0, 0);
  hw.costs.client_request = cpu.duration("client_request", 0, 0);
  hw.costs.client_byte = cpu.duration("client_byte", 0, 0, false, limits::kMaxPerByteSeconds);
  hw.costs.loopback_rx_byte = cpu.duration("loopback_rx_byte", 0, 0, false, limits::kMaxPerByteSeconds);
  hw.costs.loopback_pacing_byte = cpu.duration("loopback_pacing_byte", 0, 0, false, limits::kMaxPerByteSeconds);
  read_cpu_topology(cpu, hw);
  cpu.done();

  Section mem = root.sub("memory");
  hw.page_cache_bytes = mem.size("page_cache", 0, 4096, true);
  hw.cache_unit_bytes = mem.size("cache_unit", 64 * 1024, 4096, false, kMaxBlockBytes);
  if (hw.cache_unit_bytes % 4096) mem.fail("cache_unit", "must be a multiple of 4096 (the page size)");
  if (hw.page_cache_bytes < hw.cache_unit_bytes) mem.fail("page_cache", "must hold at least one cache_unit");
  mem.retired("dentry_cache",
             "is gone: dentries and inodes now share the page cache's memory and are reclaimed with it "
             "(models/os/vfs_cache.h); their sizes and vfs_cache_pressure are [kernel] dentry_objsize, "
             "inode_objsize and vfs_cache_pressure");
  mem.done();

  Section disk = root.sub("disk");
  const DiskKind& kind = *find_disk_kind(disk.choice("type", disk_kinds().front()->name, disk_kind_names()));
  hw.disk_mount = read_mount(disk, "/");
  disk.set_when("type = \"" + std::string(kind.name) + "\"");
  hw.disk = kind.read(disk);
  disk.done();
  read_more_disks(root, doc, hw);

  read_block(root, hw);

  Section nic = root.sub("nic");
  hw.nic.line_rate_bps = nic.rate("line_rate", 1.25e9, true) * 8;
  hw.nic.mtu = static_cast<std::uint32_t>(nic.integer("mtu", 1500, 576, 65535));
  nic.done();

  Section net = root.sub("network");
  hw.one_way_latency_s = net.duration("one_way_latency", 50e-6, 0);
  net.done();

  Section kernel = root.sub("kernel");
  sc.kernel.tcp_wmem_max = static_cast<double>(kernel.size("tcp_wmem_max", 4194304, 4096, false, kMaxBlockBytes));
  sc.kernel.pipe_bytes = kernel.size("pipe_size", 65536, 4096, false, kMaxBlockBytes);
  sc.kernel.initial_cwnd = static_cast<std::uint32_t>(kernel.integer("initial_cwnd", 10, 1, 1000));
  sc.kernel.tcp_slow_start_after_idle = kernel.flag("tcp_slow_start_after_idle", true);
  read_loopback_tcp(kernel, sc.kernel);
  read_scheduler(kernel, sc.kernel);
  read_profile_kernel(kernel, sc.kernel_profile);
  kernel.done();
}

// [nginx] os: the system NGINX is built for (auto/os/): "freebsd" selects
// its sendfile(SF_NODISKIO) path (NginxConfig::NoDiskIo).
void read_os(Section& s, const NginxReleaseDefaults& d, NginxConfig& n) {
  n.freebsd = s.choice("os", "linux", {"linux", "freebsd"}) == "freebsd";
  if (!n.freebsd) return;
  if (n.directio)
    s.fail("directio", "with os = \"freebsd\" is not modelled (FreeBSD reads O_DIRECT buffers with aio_read)");
  if (n.aio->thread_pool || n.aio->io_uring)
    s.fail("aio", std::string(n.aio->name) + " with os = \"freebsd\" is not modelled");
  using K = NginxConfig::NoDiskIo;
  n.nodiskio = d.sendfile_nodiskio_always ? K::kAsyncSendfile : n.aio->native_aio ? K::kAioPreload : K::kOff;
}

// [nginx] aio: a mode of the registry (aio_modes.h); a pool mode may name
// its pool, "threads=NAME" (ngx_http_core_set_aio), into `pool`.
const AioMode* read_aio_mode(Section& s, std::string& pool) {
  std::vector<std::string> names;
  std::string named;
  for (const AioMode* m : aio_modes()) {
    names.emplace_back(m->name);
    if (m->thread_pool) named += ", \"" + std::string(m->name) + "=NAME\"";
  }
  const std::string range = section_text::quoted_list(names) + named;
  const std::string text = s.string("aio", aio_modes().front()->name, false, KeyType::kChoice, range);
  const std::size_t eq = text.find('=');
  const AioMode* mode = find_aio_mode(text.substr(0, eq));
  if (!mode || (eq != std::string::npos && !mode->thread_pool))
    s.fail("aio", "must be one of " + range + " (got \"" + text + "\")");
  if (eq == std::string::npos) return mode;
  pool = text.substr(eq + 1);
  if (!is_nginx_word(pool, true))
    s.fail("aio", "threads=NAME needs a pool's name, like \"threads=one\" or \"threads=pool_$disk\": " +
                      std::string(kNginxWordRule) + ", and '$' (got \"" + text + "\")");
  return mode;
}

// "aio = \"threads\"": the modes with a thread pool, for aio_open's error.
std::string pool_aio_modes_text() {
  std::string out;
  for (const AioMode* m : aio_modes())
    if (m->thread_pool) out += std::string(out.empty() ? "" : " or ") + "aio = \"" + m->name + "\"";
  return out;
}

// "aio = \"NAME\"": the modes with a ring, for [nginx.io_uring]'s error.
std::string ring_aio_modes_text() {
  std::string out;
  for (const AioMode* m : aio_modes())
    if (m->io_uring) out += std::string(out.empty() ? "" : " or ") + "aio = \"" + m->name + "\"";
  return out;
}

// Refuses `key` when the hardware profile's [kernel] release predates
// `since` (a release not named is a current kernel).
void require_linux(Section& s, const std::string& key, const std::string& release, const LinuxRelease& since,
                   const std::string& what) {
  if (release.empty()) return;
  const std::optional<LinuxRelease> r = parse_linux_release(release);
  if (!r || !r->at_least(since))
    s.fail(key, fmt::format("needs Linux {}.{} or later ({}); the hardware profile's [kernel] release is \"{}\"",
                            since.major, since.minor, what, release));
}

// [nginx] aio_nowait: the RWF_NOWAIT probe before the pool (nowait_probe.h).
void read_nowait(Section& s, Scenario& sc) {
  NginxConfig& n = sc.nginx;
  n.aio_nowait = s.flag("aio_nowait", false);
  if (!n.aio_nowait) return;
  if (!n.aio->thread_pool)
    s.fail("aio_nowait", "needs " + pool_aio_modes_text() + " (a chunk the probe finds missing goes to the pool)");
  if (n.directio)
    s.fail("aio_nowait", "probes the page cache, which directio's O_DIRECT reads bypass: set one or the other");
  require_linux(s, "aio_nowait", sc.kernel.release, kRwfNowaitSince, "preadv2()'s RWF_NOWAIT");
}

// [nginx.io_uring], and the kernel a mode needs (aio_modes.h: since_linux).
void read_io_uring(Section& s, Scenario& sc) {
  NginxConfig& n = sc.nginx;
  if (n.aio->since_linux) {
    const std::optional<LinuxRelease> since = parse_linux_release(n.aio->since_linux);
    require_linux(s, "aio", sc.kernel.release, *since, std::string("aio = \"") + n.aio->name + "\"");
  }
  if (!n.aio->io_uring) {
    if (s.has("io_uring")) s.fail("io_uring", "applies only with a ring (" + ring_aio_modes_text() + ")");
    return;
  }
  if (n.directio) s.fail("directio", "with a ring is not modelled (its reads are buffered here)");
  Section u = s.sub("io_uring");
  // IORING_MAX_ENTRIES (io_uring/io_uring.c); io_uring_setup rounds up to a power of two.
  n.io_uring.entries = static_cast<std::uint32_t>(u.integer("entries", 256, 1, 32768));
  if (n.io_uring.entries & (n.io_uring.entries - 1))
    u.fail("entries", "must be a power of two (io_uring_setup rounds it up: say the ring's size)");
  n.io_uring.max_workers = static_cast<std::uint32_t>(u.integer("max_workers", 0, 0, 1 << 16));
  if (n.io_uring.max_workers > 0)
    require_linux(u, "max_workers", sc.kernel.release, LinuxRelease{5, 15}, "IORING_REGISTER_IOWQ_MAX_WORKERS");
  u.done();
  n.io_uring.async_buffered = has_async_buffered_reads(sc.kernel.release);
  const UringPath punt = uring_read_path(false, n.io_uring.async_buffered);
  n.io_uring.pool_threads =
      uring_pool_threads(punt, n.io_uring.entries, sc.hardware.logical_cpus, n.io_uring.max_workers);
}

// The release's defaults (nginx_versions.h); a version that is not a known
// release is refused, naming them all. No version: the current stable line.
NginxReleaseDefaults nginx_release(Section& s) {
  const std::string version = s.string("version", kNginxCurrentStable);
  const std::optional<NginxReleaseDefaults> d = nginx_release_defaults(version);
  if (!d) s.fail("version", "must be a known NGINX release (" + nginx_known_releases_text() + "), got \"" + version + "\"");
  return *d;
}

// directio: "off" or a size (ngx_http_core_directio: "off" or ngx_parse_offset).
std::uint64_t read_directio(Section& s) {
  const toml::node* n = s.value("directio");
  if (!n) return 0;
  if (n->is_string() && n->value<std::string>().value() == "off") return 0;
  std::uint64_t bytes = 0;
  if (n->is_integer() && n->value<std::int64_t>().value() >= 1) bytes = static_cast<std::uint64_t>(n->value<std::int64_t>().value());
  else if (!n->is_string() || !parse_size(n->value<std::string>().value(), bytes) || bytes == 0)
    s.fail("directio", "must be \"off\" or a size of at least 1 byte, like \"4m\"");
  if (bytes > limits::kMaxFileBytes) s.fail("directio", "must be at most " + std::to_string(limits::kMaxFileBytes) + " bytes");
  return bytes;
}

// output_buffers: "NUMBER SIZE", as in nginx.conf ("2 32k").
void read_output_buffers(Section& s, NginxConfig& n) {
  const toml::node* node = s.value("output_buffers");
  if (!node) return;
  const char* form = "must be \"NUMBER SIZE\" as in nginx.conf, like \"2 32k\" (1 to 1024 buffers of 512 bytes to 64m)";
  if (!node->is_string()) s.fail("output_buffers", form);
  std::istringstream in(node->value<std::string>().value());
  std::string number, size, rest;
  in >> number >> size >> rest;
  std::uint64_t bytes = 0;
  char* end = nullptr;
  const unsigned long count = number.empty() ? 0 : std::strtoul(number.c_str(), &end, 10);
  if (number.empty() || *end != '\0' || count < 1 || count > 1024 || !rest.empty() || !parse_size(size, bytes) ||
      bytes < 512 || bytes > (64ULL << 20))
    s.fail("output_buffers", form);
  n.output_buffers_number = static_cast<std::uint32_t>(count);
  n.output_buffers_size = bytes;
}

// With directio, NGINX reads a file's body in output_buffers-sized reads
// at offsets that are multiples of that size (ngx_output_chain_get_buf
// aligns the buffer's address, not its size), and O_DIRECT reads whose
// length or offset is not a multiple of the logical block size fail with
// EINVAL on Linux (open(2), "O_DIRECT"). So the size must be a multiple of
// directio_alignment; the release's default size (32k) is named by
// directio_alignment when output_buffers is not set.
void check_directio_buffers(Section& s, const NginxConfig& n) {
  if (!n.directio || n.output_buffers_size % n.directio_alignment == 0) return;
  const std::string sizes = std::to_string(n.output_buffers_size) + "-byte output buffers with directio_alignment " +
                            std::to_string(n.directio_alignment);
  if (s.has("output_buffers"))
    s.fail("output_buffers", "must be a multiple of directio_alignment with directio set (O_DIRECT reads of " + sizes +
                                 " would fail with EINVAL)");
  s.fail("directio_alignment", "must divide the release's output_buffers size with directio set (O_DIRECT reads of " +
                                   sizes + " would fail with EINVAL); set output_buffers to a multiple of it");
}

// NGINX reads open_file_cache_valid (ngx_conf_set_sec_slot) and
// open_file_cache's inactive= with ngx_parse_time(..., 1): whole seconds,
// "ms" refused; the cache compares them with ngx_time() seconds.
bool whole_seconds(double& seconds) {
  const double whole = std::round(seconds);
  if (std::abs(seconds - whole) > 1e-9) return false;
  seconds = whole;  // "2000ms" is 2 s exactly
  return true;
}

// open_file_cache: "off" or "max=N [inactive=TIME]" (ngx_http_core_open_file_cache).
void read_open_file_cache(Section& s, OpenFileCacheSpec& spec) {
  const toml::node* node = s.value("open_file_cache");
  spec.valid_s = s.duration("open_file_cache_valid", 60, 0, false, 100000);
  if (!whole_seconds(spec.valid_s))
    s.fail("open_file_cache_valid", "must be whole seconds, like \"30s\" (NGINX reads it in seconds)");
  spec.min_uses = static_cast<std::uint32_t>(s.integer("open_file_cache_min_uses", 1, 0, 4294967295LL));
  spec.errors = s.flag("open_file_cache_errors", false);
  if (!node) return;
  const char* form = "must be \"off\" or \"max=N\" with an optional \"inactive=TIME\", as in nginx.conf, "
                     "like \"max=1000 inactive=20s\" (max 1 to 100000000)";
  if (!node->is_string()) s.fail("open_file_cache", form);
  const std::string text = node->value<std::string>().value();
  if (text == "off") return;
  std::istringstream in(text);
  std::string word;
  std::uint64_t max = 0;
  double inactive = 60;  // ngx_http_core_open_file_cache: inactive = 60
  while (in >> word) {
    if (word.rfind("max=", 0) == 0) {
      char* end = nullptr;
      const std::string v = word.substr(4);
      max = v.empty() ? 0 : std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || max < 1 || max > 100000000) s.fail("open_file_cache", form);
    } else if (word.rfind("inactive=", 0) == 0) {
      if (!parse_duration(word.substr(9), inactive) || !(inactive >= 0 && inactive <= 100000))
        s.fail("open_file_cache", form);
      if (!whole_seconds(inactive))
        s.fail("open_file_cache", "inactive= must be whole seconds, like \"inactive=20s\" (NGINX reads it in seconds)");
    } else {
      s.fail("open_file_cache", form + std::string(" (got \"") + word + "\")");
    }
  }
  // "open_file_cache" must have the "max" parameter (ngx_http_core_open_file_cache).
  if (max == 0) s.fail("open_file_cache", "must have max=N, as NGINX requires");
  spec.enabled = true;
  spec.max = static_cast<std::uint32_t>(max);
  spec.inactive_s = inactive;
}

// One pool's keys: a [nginx.thread_pool] table, or one of [[nginx.thread_pool]].
ThreadPoolConfig read_pool_keys(Section& pool) {
  ThreadPoolConfig c;
  c.name = pool.string("name", "default");
  if (!is_nginx_word(c.name))
    pool.fail("name", "must be a pool's name, " + std::string(kNginxWordRule) + " (got \"" + c.name + "\")");
  c.threads = static_cast<std::uint32_t>(pool.integer("threads", 32, 1, 1 << 16));
  c.max_queue = static_cast<std::uint32_t>(pool.integer("max_queue", 65536, 0, 1 << 30));
  pool.done();
  return c;
}

// thread_pool NAME threads=N max_queue=M (ngx_thread_pool.c): one
// [nginx.thread_pool] table (the scenarios before named pools; aio threads
// uses it whatever its name), or [[nginx.thread_pool]], one table per
// directive, names unique ("duplicate thread pool" in ngx_thread_pool_add).
void read_thread_pools(Section& s, const LayeredToml& doc, NginxConfig& n) {
  const toml::node* node = s.has("thread_pool") ? s.node("thread_pool") : nullptr;
  if (!node || node->is_table()) {
    Section pool = s.sub("thread_pool");
    n.thread_pool = read_pool_keys(pool);
    return;
  }
  const toml::array* arr = node->as_array();
  if (!arr || arr->empty()) s.fail("thread_pool", "must be a table, [nginx.thread_pool], or tables, [[nginx.thread_pool]]");
  std::vector<ThreadPoolConfig> pools;
  for (const toml::node& item : *arr) {
    const std::string file = doc.file_of(&item);
    const toml::table* t = item.as_table();
    if (!t) throw ConfigError(file, LayeredToml::line_of(&item), "nginx.thread_pool", "each entry must be a table");
    ThreadPoolConfig c;
    for (auto&& [k, v] : *t) {
      const std::string key(k.str());
      const int line = LayeredToml::line_of(&v);
      const std::string dotted = "nginx.thread_pool." + key;
      if (key == "name") {
        if (!v.is_string() || !is_nginx_word(v.value<std::string>().value()))
          throw ConfigError(file, line, dotted, "must be a pool's name, " + std::string(kNginxWordRule));
        c.name = v.value<std::string>().value();
      } else if (key == "threads" || key == "max_queue") {
        const std::int64_t hi = key == "threads" ? 1 << 16 : 1 << 30, lo = key == "threads" ? 1 : 0;
        if (!v.is_integer() || v.value<std::int64_t>().value() < lo || v.value<std::int64_t>().value() > hi)
          throw ConfigError(file, line, dotted, fmt::format("must be a whole number from {} to {}", lo, hi));
        (key == "threads" ? c.threads : c.max_queue) = static_cast<std::uint32_t>(v.value<std::int64_t>().value());
      } else {
        throw ConfigError(file, line, dotted, "unknown key; [[nginx.thread_pool]] takes name, threads, max_queue");
      }
    }
    for (const ThreadPoolConfig& before : pools)
      if (before.name == c.name)
        throw ConfigError(file, LayeredToml::line_of(&item), "nginx.thread_pool.name",
                          "duplicate thread pool \"" + c.name + "\" (as NGINX refuses it)");
    pools.push_back(c);
  }
  n.thread_pool = pools.front();
  n.more_thread_pools.assign(pools.begin() + 1, pools.end());
}

// split_clients STRING $variable { 33.3% "one"; * "three"; } as
// [nginx.split_clients] key, variable and parts = [["33.3%", "one"], ["*", "three"]]
// (split_clients.h). The string hashed is the request's URI.
void read_split_clients(Section& s, SplitClientsSpec& spec) {
  Section sc = s.sub("split_clients");
  spec.key = sc.choice("key", "$request_uri", {"$request_uri", "$uri"});
  spec.variable = sc.string("variable", "");
  const toml::node* parts = sc.value("parts");
  sc.done();
  if (spec.variable.empty() && !parts) return;
  if (spec.variable.size() < 2 || spec.variable[0] != '$' ||
      spec.variable.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", 1) != std::string::npos)
    sc.fail("variable", "must be a variable's name, like \"$disk\"");
  const char* form = "must be a list of [share, value] pairs, as the block's lines: "
                     "[[\"33.3%\", \"one\"], [\"33.3%\", \"two\"], [\"*\", \"three\"]] (shares with at most two decimals)";
  const toml::array* arr = parts ? parts->as_array() : nullptr;
  if (!arr || arr->empty()) sc.fail("parts", form);
  for (const toml::node& e : *arr) {
    const toml::array* pair = e.as_array();
    if (!pair || pair->size() != 2 || !pair->get(0)->is_string() || !pair->get(1)->is_string()) sc.fail("parts", form);
    SplitPart part;
    if (!parse_split_share(pair->get(0)->value<std::string>().value(), part.percent))
      sc.fail("parts", std::string(form) + " (got \"" + pair->get(0)->value<std::string>().value() + "\")");
    part.value = pair->get(1)->value<std::string>().value();
    if (!part.value.empty() && !is_nginx_word(part.value))
      sc.fail("parts", "each value must be empty or " + std::string(kNginxWordRule) + " (got \"" + part.value + "\")");
    spec.parts.push_back(part);
    if (split_shares_exceed_100(spec.parts))
      sc.fail("parts", "percent total is greater than 100% (as NGINX refuses it; a \"*\" takes the rest and counts as 100%)");
  }
}

// aio threads=NAME must name a pool declared; with split_clients' variable
// in it, the pool of every value the split can give (the empty value too,
// when the shares leave some out). Plain `aio threads` with several pools
// uses the one named "default" (ngx_thread_pool.c's default pool).
void check_aio_pool(Section& s, const NginxConfig& n) {
  if (!n.aio->thread_pool) return;  // pools nothing names are NGINX's right
  if (n.aio_threads_pool.empty() && n.more_thread_pools.empty()) return;
  const std::string where = n.aio_threads_pool.empty()
                                ? "aio = \"" + std::string(n.aio->name) + "\" uses the pool named \"default\""
                                : "aio " + std::string(n.aio->name) + "=" + n.aio_threads_pool;
  // The pool `name` must be declared; `value`: split_clients' value that gave it, if any.
  auto check = [&](const std::string& name, const std::string* value) {
    const std::string pool = name.empty() ? "default" : name;
    if (pool_index(n, pool) < 0)
      s.fail("aio", where + (value ? " with " + n.split_clients.variable + " = \"" + *value + "\"" : std::string()) +
                        ": no [[nginx.thread_pool]] is named \"" + pool + "\"");
  };
  const bool per_request = !n.aio_threads_pool.empty() && n.split_clients.enabled() &&
                           aio_pool_name(n, "\x01") != n.aio_threads_pool;
  if (!per_request) {
    if (n.aio_threads_pool.find('$') != std::string::npos)
      s.fail("aio", where + " names a variable that no [nginx.split_clients] sets");
    check(n.aio_threads_pool, nullptr);
    return;
  }
  std::uint64_t sum = 0;
  for (const SplitPart& p : n.split_clients.parts) {
    check(aio_pool_name(n, p.value), &p.value);
    sum = p.percent ? sum + p.percent : 10000;
  }
  const std::string empty;  // a URI past every share: the empty value
  if (sum < 10000) check(aio_pool_name(n, empty), &empty);
}

// proxy_cache ZONE and [[nginx.proxy_cache_path]] path, keys_zone
// (ngx_http_file_cache.c): which directory, so which disk, holds each file.
// ZONE may hold split_clients' variable ("cache_$disk"); every zone it can
// name must be a keys_zone, each path under a mount point of the machine.
void read_proxy_cache(Section& s, const LayeredToml& doc, NginxConfig& n) {
  n.proxy_cache = s.string("proxy_cache", "");
  const toml::node* node = s.value("proxy_cache_path");
  if (node) {
    const toml::array* arr = node->as_array();
    if (!arr || arr->empty()) s.fail("proxy_cache_path", "must be tables, [[nginx.proxy_cache_path]], with path and keys_zone");
    for (const toml::node& item : *arr) {
      const std::string file = doc.file_of(&item);
      const toml::table* t = item.as_table();
      if (!t) throw ConfigError(file, LayeredToml::line_of(&item), "nginx.proxy_cache_path", "each entry must be a table");
      ProxyCachePath p;
      for (auto&& [k, v] : *t) {
        const std::string key(k.str());
        const int line = LayeredToml::line_of(&v);
        const std::string dotted = "nginx.proxy_cache_path." + key;
        if (key != "path" && key != "keys_zone")
          throw ConfigError(file, line, dotted, "unknown key; [[nginx.proxy_cache_path]] takes path, keys_zone");
        if (!v.is_string() || v.value<std::string>().value().empty())
          throw ConfigError(file, line, dotted, "must be a non-empty string");
        (key == "path" ? p.path : p.keys_zone) = v.value<std::string>().value();
      }
      const int line = LayeredToml::line_of(&item);
      if (p.path.empty() || p.path[0] != '/')
        throw ConfigError(file, line, "nginx.proxy_cache_path.path", "is required: an absolute path, like \"/mnt/disk1\"");
      if (p.keys_zone.empty())
        throw ConfigError(file, line, "nginx.proxy_cache_path.keys_zone", "is required: the zone's name, like \"cache_1\"");
      for (const ProxyCachePath& before : n.proxy_cache_paths)
        if (before.keys_zone == p.keys_zone)
          throw ConfigError(file, line, "nginx.proxy_cache_path.keys_zone",
                            "duplicate zone \"" + p.keys_zone + "\" (as NGINX refuses it)");
      n.proxy_cache_paths.push_back(p);
    }
  }
  if (n.proxy_cache.empty()) return;
  const bool per_request = n.split_clients.enabled() && split_template(n, n.proxy_cache, "\x01") != n.proxy_cache;
  if (!per_request && n.proxy_cache.find('$') != std::string::npos)
    s.fail("proxy_cache", "\"" + n.proxy_cache + "\" names a variable that no [nginx.split_clients] sets");
  std::vector<std::string> values;
  if (per_request) {
    std::uint64_t sum = 0;
    for (const SplitPart& p : n.split_clients.parts) {
      values.push_back(p.value);
      sum = p.percent ? sum + p.percent : 10000;
    }
    if (sum < 10000) values.emplace_back();
  } else {
    values.push_back("");
  }
  for (const std::string& v : values) {
    const std::string zone = split_template(n, n.proxy_cache, v);
    bool found = false;
    for (const ProxyCachePath& p : n.proxy_cache_paths) found = found || p.keys_zone == zone;
    if (!found)
      s.fail("proxy_cache", "\"" + n.proxy_cache + "\"" + (per_request ? " with " + n.split_clients.variable + " = \"" + v + "\"" : std::string()) +
                                ": no [[nginx.proxy_cache_path]] has keys_zone = \"" + zone + "\"");
  }
}

// events { worker_connections N; } (listen_sockets.h). Unset: not modelled,
// no limit. NGINX refuses fewer than one per listening socket plus one for
// the channel (ngx_event_init_conf, since 1.15.2: "N worker_connections are
// not enough for M listening sockets"), counting the sockets as configured,
// before reuseport clones one per worker (ngx_clone_listening runs later);
// a worker then holds only its own clone. So one listen directive needs 2
// with or without reuseport. At most fs.nr_open's default, 1048576
// (fs/file.c sysctl_nr_open): no worker can hold more descriptors.
void read_worker_connections(Section& s, NginxConfig& n) {
  n.worker_connections = static_cast<std::uint32_t>(s.integer("worker_connections", 0, 1, 1048576));
  if (!n.worker_connections) return;
  const std::uint32_t listening = 1;  // the scenario's one listen directive
  if (n.worker_connections < listening + 1)
    s.fail("worker_connections", fmt::format("{} are not enough for {} listening socket{} (NGINX needs one per "
                                             "listening socket and one for its channel: at least {})",
                                             n.worker_connections, listening, listening == 1 ? "" : "s", listening + 1));
}

void read_nginx(Section& root, const LayeredToml& doc, Scenario& sc) {
  Section s = root.sub("nginx");
  NginxConfig& n = sc.nginx;
  const NginxReleaseDefaults d = nginx_release(s);
  n.version = d.version;
  n.write_posted_next = d.write_posted_next;
  n.worker_processes = static_cast<std::uint32_t>(s.integer("worker_processes", 1, 1, 1024));
  const bool mutex = s.flag("accept_mutex", d.accept_mutex);
  const bool reuseport = s.flag("reuseport", false);
  n.accept = &accept_policy(mutex, reuseport);
  n.accept_mutex_delay_s = s.duration("accept_mutex_delay", 0.5, 0);
  // NGINX reads accept_mutex_delay in whole milliseconds (ngx_conf_set_msec_slot),
  // so 1 ms is the least it can wait; with 0 a worker that lost the mutex
  // calls epoll_wait with timeout 0 and polls without sleeping. The model
  // charges no CPU for an empty turn (event_loop.h), so such polling would
  // stop simulated time: refused, as any delay NGINX could not be given.
  if (n.accept->accept_mutex && n.accept_mutex_delay_s < kMinAcceptMutexDelaySeconds)
    s.fail("accept_mutex_delay",
           fmt::format("must be at least 1ms with accept_mutex on (got {} s): NGINX reads it in whole milliseconds, "
                       "and with 0 a worker that lost the mutex polls epoll_wait without sleeping, a busy loop "
                       "clerk does not model",
                       n.accept_mutex_delay_s));
  n.multi_accept = s.flag("multi_accept", false);
  read_worker_connections(s, n);
  // EPOLLEXCLUSIVE is no directive: the release uses it whenever accept_mutex is off.
  n.epoll_exclusive = s.flag("epoll_exclusive", d.epoll_exclusive && n.accept->shared_without_mutex());
  if (n.epoll_exclusive && !n.accept->shared_without_mutex())
    s.fail("epoll_exclusive", "applies only with accept_mutex off and without reuseport (as NGINX uses it)");
  n.keepalive_requests = static_cast<std::uint32_t>(s.integer("keepalive_requests", d.keepalive_requests, 1, 4294967295LL));
  n.aio_open = s.flag("aio_open", false);
  n.cache_fill_rate = s.number("cache_fill_rate", 0, 0, 1);
  n.sendfile = s.flag("sendfile", false);
  if (!n.sendfile) s.fail("sendfile", "only \"sendfile on\" is modelled (read()+write() is not yet)");
  n.sendfile_max_chunk = s.size("sendfile_max_chunk", d.sendfile_max_chunk, 0, false, limits::kMaxFileBytes);
  n.aio = read_aio_mode(s, n.aio_threads_pool);
  n.directio = read_directio(s);
  n.directio_alignment = s.size("directio_alignment", 512, 512, false, 1 << 20);
  if (n.directio_alignment & (n.directio_alignment - 1))
    s.fail("directio_alignment", "must be a power of two (a multiple of the device's logical block size)");
  n.output_buffers_number = d.output_buffers_number;
  n.output_buffers_size = d.output_buffers_size;
  read_output_buffers(s, n);
  check_directio_buffers(s, n);
  read_open_file_cache(s, n.open_file_cache);
  n.epoll_events = static_cast<std::uint32_t>(s.integer("events_per_wait", 512, 1, 1 << 20));
  // events { worker_aio_requests N; } (ngx_epoll_module.c, default 32); io_setup()
  // fails beyond fs.aio-max-nr (65536 by default, Documentation/sysctl/fs.txt).
  n.worker_aio_requests = static_cast<std::uint32_t>(s.integer("worker_aio_requests", 32, 1, 65536));
  read_os(s, d, n);
  if (n.aio->thread_pool && !d.thread_pools)
    s.fail("aio", std::string(n.aio->name) + " needs NGINX 1.7.11 or later (thread pools)");
  if (n.aio_open && !n.aio->thread_pool) s.fail("aio_open", "needs " + pool_aio_modes_text() + " (it uses the same pool)");
  read_thread_pools(s, doc, n);
  read_split_clients(s, n.split_clients);
  check_aio_pool(s, n);
  read_proxy_cache(s, doc, n);
  read_nowait(s, sc);
  read_io_uring(s, sc);
  s.done();
}

// [["8k", 0.4], ["32k", 0.3], ...]: sizes and their weights; or classes
// with a range, [{share = 0.98, min = "20k", max = "200k"}, ...], each size
// drawn uniformly from min to max. The two forms may be mixed.
std::uint64_t size_value(const toml::node& n, bool& ok) {
  std::uint64_t bytes = 0;
  if (n.is_integer()) {
    const std::int64_t i = n.value<std::int64_t>().value();
    ok = i >= 1;
    bytes = ok ? static_cast<std::uint64_t>(i) : 0;
  } else {
    ok = n.is_string() && parse_size(n.value<std::string>().value(), bytes);
  }
  ok = ok && bytes >= 1 && bytes <= limits::kMaxFileBytes;
  return bytes;
}

SizeClass read_size_class(Section& s, const toml::table& t) {
  const char* form = "a size class is {share = weight, min = size, max = size}, like "
                     "{share = 0.98, min = \"20k\", max = \"200k\"}, with sizes from 1 byte to 1 TiB, min <= max "
                     "and a finite positive share";
  for (auto&& [k, v] : t)
    if (k.str() != "share" && k.str() != "min" && k.str() != "max")
      s.fail("file_sizes", "unknown key '" + std::string(k.str()) + "' in a size class: " + form);
  const toml::node* share = t.get("share");
  const toml::node* lo = t.get("min");
  const toml::node* hi = t.get("max");
  if (!share || !lo || !hi || !share->is_number()) s.fail("file_sizes", form);
  bool ok_lo = false, ok_hi = false;
  const std::uint64_t min = size_value(*lo, ok_lo), max = size_value(*hi, ok_hi);
  const double weight = share->value<double>().value();
  if (!ok_lo || !ok_hi || min > max || !std::isfinite(weight) || !(weight > 0)) s.fail("file_sizes", form);
  return SizeClass(min, max, weight);
}

std::vector<SizeClass> read_size_mix(Section& s, const toml::node& mix) {
  const char* form = "each entry is [size, weight] with a size from 1 byte to 1 TiB and a finite positive weight, "
                     "like [\"32k\", 0.3], or a size class {share, min, max}";
  const toml::array* arr = mix.as_array();
  if (!arr || arr->empty()) s.fail("file_sizes", "must be a list of [size, weight] pairs or {share, min, max} classes");
  std::vector<SizeClass> out;
  for (const toml::node& e : *arr) {
    if (const toml::table* t = e.as_table()) {
      out.push_back(read_size_class(s, *t));
      continue;
    }
    const toml::array* pair = e.as_array();
    if (!pair || pair->size() != 2 || !pair->get(1)->is_number()) s.fail("file_sizes", form);
    bool ok = false;
    const std::uint64_t bytes = size_value(*pair->get(0), ok);
    const double weight = pair->get(1)->value<double>().value();
    if (!ok || !std::isfinite(weight) || !(weight > 0)) s.fail("file_sizes", form);
    out.emplace_back(bytes, weight);
  }
  // A file's class is drawn against the weights' total (draw_file_sizes):
  // two weights of 1e308 add up to infinity and every file would fall in
  // the last class.
  double total = 0;
  for (const SizeClass& c : out) total += c.weight;
  if (!std::isfinite(total))
    s.fail("file_sizes", "the weights add up to more than a double holds; scale them down (only their ratios count)");
  return out;
}

// [16, 16, 256]: entries per directory level, outermost first; multiplies to `files`.
std::vector<std::uint32_t> read_tree(Section& s, const toml::node& t, std::uint32_t files) {
  const toml::array* arr = t.as_array();
  if (!arr || arr->empty() || arr->size() > 7) s.fail("tree", "must be a list of 1 to 7 entry counts, outermost first");
  std::vector<std::uint32_t> tree;
  std::uint64_t product = 1;
  for (const toml::node& e : *arr) {
    // Each level's count divides the file count, so none can exceed it (nor wrap).
    if (!e.is_integer() || e.value<std::int64_t>().value() < 1 || e.value<std::int64_t>().value() > files)
      s.fail("tree", "entries must be whole numbers from 1 to files (" + std::to_string(files) + ")");
    tree.push_back(static_cast<std::uint32_t>(e.value<std::int64_t>().value()));
    product *= tree.back();  // at most files^2 < 2^60 before the check below
    if (product > files)
      s.fail("tree", "multiplies to more than files = " + std::to_string(files));
  }
  if (product != files)
    s.fail("tree", "multiplies to " + std::to_string(product) + " files, but files = " + std::to_string(files));
  return tree;
}

std::string shown_text(Section& s, const std::string& key, const std::string& fallback, bool multiline);

void read_dataset(Section& root, Scenario& sc) {
  Section s = root.sub("dataset");
  FilesystemSpec& f = sc.filesystem;
  // A path, shown in realrun's notes: no control character (a NUL would cut
  // it short, a newline forge a note), as a name.
  sc.root = shown_text(s, "root", "/", false);
  f.files = static_cast<std::uint32_t>(s.integer("files", 1, 1, 1 << 30, true));
  sc.files_at = s.origin("files");
  if (const toml::node* mix = s.value("file_sizes")) {
    f.size_mix = read_size_mix(s, *mix);
    if (s.has("file_size")) s.fail("file_size", "give file_size or file_sizes, not both");
    f.file_size = f.size_mix.front().min;
  } else {
    f.file_size = s.size("file_size", 0, 1, true, limits::kMaxFileBytes);
  }
  // "ext4": each file its own size, as ext4 allocates a data set written
  // once (models/os/ext4_layout.h); "spread" and "packed": the older slots
  // of the largest file's size, which the committed scenarios pin.
  const std::string placement = s.choice("placement", "ext4", {"ext4", "spread", "packed"});
  f.placement = placement == "ext4" ? Placement::kExt4 : placement == "spread" ? Placement::kSpread : Placement::kPacked;
  if (s.has("fill_factor") && f.placement != Placement::kExt4)
    s.fail("fill_factor", "needs placement = \"ext4\" (spread and packed give every file a slot of the largest size)");
  f.fill_factor = s.number("fill_factor", 1.0, 0.01, 1.0);
  s.retired("metadata_cached",
           "is gone: what the dentry, inode and buffer caches hold now follows from the load, reclaimed with "
           "the page cache (models/os/vfs_cache.h); run the load first to warm them (the warmup key) and give "
           "the kernel's vfs_cache_pressure in the hardware profile's [kernel]");
  sc.preload_fraction = s.number("preload_fraction", 0, 0, 1);
  if (sc.preload_fraction > 0) sc.preload_at = s.origin("preload_fraction");
  if (const toml::node* t = s.value("tree")) {
    f.tree = read_tree(s, *t, f.files);
  } else {
    f.tree = {f.files};
  }
  s.done();
}

// popularity = "uniform" (the default) | "zipf" | "hot", with zipf_exponent
// or hot = {files, share}, and popular_sizes (models/clients/popularity.h).
PopularitySpec read_popularity(Section& g, const FilesystemSpec& fs, bool fixed_path) {
  PopularitySpec p;
  const std::string kind = g.choice("popularity", "uniform", {"uniform", "zipf", "hot"});
  if (fixed_path && g.has("popularity"))
    g.fail("popularity", "needs path = \"random\" (a group with a fixed path asks for one file)");
  p.kind = kind == "zipf" ? PopularityKind::kZipf : kind == "hot" ? PopularityKind::kHot : PopularityKind::kUniform;
  if (g.has("zipf_exponent") && p.kind != PopularityKind::kZipf)
    g.fail("zipf_exponent", "needs popularity = \"zipf\"");
  if (g.has("hot") && p.kind != PopularityKind::kHot) g.fail("hot", "needs popularity = \"hot\"");
  if (p.kind == PopularityKind::kZipf) p.zipf_exponent = g.number("zipf_exponent", 1.0, 0, 10, true);
  Section hot = g.sub("hot");
  if (p.kind == PopularityKind::kHot) {
    if (!g.has("hot")) g.fail("hot", "is required with popularity = \"hot\", like hot = {files = 0.02, share = 0.9}");
    p.hot_files = hot.number("files", 0, 0, 1, true);
    if (!(p.hot_files > 0)) hot.fail("files", "must be above 0 (the share of the files that is hot)");
    p.hot_share = hot.number("share", 0, 0, 1, true);
    hot.done();
  }
  const std::string sizes = g.choice("popular_sizes", "any", {"any", "small", "large"});
  if (g.has("popular_sizes")) {
    if (p.kind == PopularityKind::kUniform)
      g.fail("popular_sizes", "needs popularity = \"zipf\" or \"hot\" (uniform has no ranking)");
    bool mixed = false;
    for (const SizeClass& c : fs.size_mix) mixed = mixed || c.min != c.max || c.min != fs.size_mix.front().min;
    if (!mixed) g.fail("popular_sizes", "needs a data set of mixed sizes ([dataset] file_sizes)");
  }
  p.sizes = sizes == "small" ? PopularSizes::kSmall : sizes == "large" ? PopularSizes::kLarge : PopularSizes::kAny;
  return p;
}

// One value of a path quantity: a time (rtt) or a rate (bandwidth), by hand
// so that the key is declared once, as a value of three forms.
double path_value(Section& g, const std::string& key, const toml::node& n, bool is_time, const std::string& what) {
  double v = 0;
  const bool ok = n.is_string() && (is_time ? parse_duration(n.value<std::string>().value(), v)
                                            : parse_rate(n.value<std::string>().value(), v));
  if (!ok) g.fail(key, what + (is_time ? " must be a time, like \"40ms\"" : " must be a rate, like \"20Mbit/s\""));
  if (!(v > 0) || (is_time && v > limits::kMaxSpanSeconds) ||
      (!is_time && !(v >= limits::kMinRateBytesPerSecond && v <= limits::kMaxRateBytesPerSecond)))
    g.fail(key, what + (is_time ? fmt::format(" must be above 0 and at most {:g} s", limits::kMaxSpanSeconds)
                                : " must be " + limits::rate_range_text()));
  return v;
}

// rtt or bandwidth of an internet group (models/clients/network_path.h):
// "40ms" (every connection), {median = "40ms", sigma = 0.7} (lognormal), or
// [["10ms", 0.1], ["40ms", 0.5], ["150ms", 0.9]] (percentiles: [value,
// share of connections at or below it]).
std::optional<Distribution> read_path_quantity(Section& g, const std::string& key, bool is_time) {
  g.declare(key, KeyType::kValue, is_time ? "a time, {median, sigma} or [[time, share], ...]"
                                          : "a rate, {median, sigma} or [[rate, share], ...]");
  const toml::node* n = g.node(key);
  if (!n) return std::nullopt;
  Distribution d;
  if (n->is_string()) {
    d.kind = Distribution::Kind::kFixed;
    d.value = path_value(g, key, *n, is_time, "its value");
    return d;
  }
  if (n->is_table()) {
    Section t = g.sub(key);
    d.kind = Distribution::Kind::kLognormal;
    const toml::node* m = t.node("median");
    if (is_time) t.duration("median", 0, 0, true); else t.rate("median", 0, true);
    d.median = path_value(t, "median", *m, is_time, "median");
    d.sigma = t.number("sigma", 0, 0, 5, true);
    t.done();
    return d;
  }
  const toml::array* arr = n->as_array();
  const std::string form = is_time ? "[[\"10ms\", 0.1], [\"40ms\", 0.5], [\"150ms\", 0.9]]"
                                   : "[[\"2Mbit/s\", 0.1], [\"20Mbit/s\", 0.5], [\"100Mbit/s\", 0.9]]";
  if (!arr || arr->size() < 2)
    g.fail(key, "must be one value, {median, sigma} or a list of two or more [value, share] pairs, like " + form);
  double last_v = 0, last_p = 0;
  for (const toml::node& e : *arr) {
    const toml::array* pair = e.as_array();
    if (!pair || pair->size() != 2 || !pair->get(1)->is_number())
      g.fail(key, "each entry is [value, share of connections at or below it], like " + form);
    const double v = path_value(g, key, *pair->get(0), is_time, "each entry's value");
    const double p = pair->get(1)->value<double>().value();
    if (!(p > last_p && p < 1) || !(v > last_v))
      g.fail(key, "values and shares must rise, shares above 0 and below 1 (a lognormal or a fixed value has no bounds to give)");
    d.table.emplace_back(p * 100, v);
    last_v = v;
    last_p = p;
  }
  d.kind = Distribution::Kind::kPercentiles;
  return d;
}

// rtt and bandwidth make a group internet clients.
NetworkPathSpec read_network_path(Section& g, const WrkGroupSpec& w) {
  NetworkPathSpec net;
  const std::optional<Distribution> rtt = read_path_quantity(g, "rtt", true);
  const std::optional<Distribution> rate = read_path_quantity(g, "bandwidth", false);
  if (!rtt && rate) g.fail("bandwidth", "needs rtt (internet clients have both; without rtt the group is on the LAN)");
  if (!rtt) return net;
  if (w.on_server_host) g.fail("rtt", "needs host = \"remote\" (a client on the server's host has no internet path)");
  net.internet = true;
  net.rtt_s = *rtt;
  if (rate) net.rate_Bps = *rate;
  else net.rate_Bps.value = std::numeric_limits<double>::infinity();
  return net;
}

// trace = "access.log" and its keys (models/clients/trace.h): the log,
// relative to the file that names it, must exist (when `check_files`), and
// its log_format compile. Its other keys need trace.
void read_trace(Section& g, WrkGroupSpec& w, std::size_t groups, bool check_files) {
  const std::vector<std::string> keys = {"log_format", "speed", "from", "until", "sample", "window", "dataset"};
  const std::string file = g.string("trace", "");
  if (!g.has("trace")) {
    for (const std::string& k : keys)
      if (g.has(k)) g.fail(k, "needs trace = \"access.log\" (a group that replays an access log)");
    return;
  }
  TraceSpec& t = w.trace;
  const KeyOrigin at = g.origin("trace");
  t.key_file = at.file;
  t.key_line = at.line;
  if (file.empty()) g.fail("trace", "must name an access log, like \"access.log\"");
  const std::filesystem::path p(file);
  t.file = p.is_absolute() ? file : (std::filesystem::path(at.file).parent_path() / p).string();
  std::error_code ec;
  if (check_files && !std::filesystem::is_regular_file(t.file, ec))
    g.fail("trace", "no access log '" + t.file + "' (a path relative to the scenario file that names it)");
  t.log_format = g.string("log_format", kCombinedLogFormat);
  std::string error;
  if (!LogFormat::compile(t.log_format, error)) g.fail("log_format", error);
  t.speed = g.number("speed", 1, 1e-3, 1e3);
  // Positions in the log, which may span years: not a run's span.
  constexpr double kLogSpan = 1e9;
  t.from_s = g.duration("from", 0, 0, false, kLogSpan);
  t.until_s = g.duration("until", 0, 0, false, kLogSpan);
  if (t.until_s == 0) t.until_s = 1e18;
  else if (t.until_s <= t.from_s) g.fail("until", "must be after from (0: the log's end)");
  t.sample = g.number("sample", 1, 0, 1);
  if (!(t.sample > 0)) g.fail("sample", "must be above 0 (the share of the lines replayed)");
  t.window_s = g.duration("window", 10, 1e-3);
  t.dataset = g.choice("dataset", "add", {"add", "log"}) == "log" ? TraceDataset::kLog : TraceDataset::kAdd;
  if (t.dataset == TraceDataset::kLog && groups > 1)
    g.fail("dataset", "\"log\" makes the data set of this log alone: the group must be the scenario's only one");
  for (const char* k : {"path", "rate", "arrival", "popularity", "zipf_exponent", "hot", "popular_sizes"})
    if (g.has(k)) g.fail(k, "does not go with trace: the log gives every request's path and time");
}

void read_clients(Section& root, const LayeredToml& doc, Scenario& sc, const FilesystemSpec& fs, bool check_files) {
  Section clients = root.sub("clients");
  const auto names = doc.children("clients");
  if (names.empty()) root.fail("clients", "needs at least one client group, like [clients.constant]");
  for (const std::string& name : names) {
    Section g = clients.sub(name, "NAME");
    if (!doc.find(g.path()))  // only --set clients.NAME.key=... names it
      clients.fail(name, "is no client group of the scenario: --set can change an existing group's keys, or add a "
                         "whole group as an inline table, like --set 'clients." + name +
                         "={threads=1, connections=4, path=\"random\"}'");
    if (!doc.find(g.path())->is_table()) clients.fail(name, "must be a table");
    WrkGroupSpec w;
    w.name = name;
    g.choice("tool", "wrk", {"wrk", "wrk2"});
    w.threads = static_cast<std::uint32_t>(g.integer("threads", 2, 1, 1 << 16));
    w.connections = static_cast<std::uint32_t>(g.integer("connections", 10, 1, 1 << 24, true));
    if (w.connections < w.threads) g.fail("connections", "must be at least threads (wrk refuses fewer)");
    w.timeout_s = g.duration("timeout", 2.0, 1e-3);
    read_trace(g, w, names.size(), check_files);
    const std::string path = g.string("path", "", !w.trace.enabled());
    if (w.trace.enabled() && sc.nginx.split_clients.enabled())
      g.fail("trace", "with [nginx.split_clients] is not modelled: split_clients would hash the data set's own paths, "
                      "not the log's $request_uri");
    if (w.trace.enabled()) {
      w.url = g.string("url", "http://server/ (paths from " + std::filesystem::path(w.trace.file).filename().string() + ")");
    } else if (path == "random") {
      w.fixed_file = -1;
      w.url = g.string("url", "http://server/ (random file per request, Lua script)");
    } else {
      const std::int64_t file = resolve_path(fs.tree, path);
      if (file < 0)
        g.fail("path", "\"" + path + "\" is not a file of the dataset (levels of 1-based numbers, like \"/1/1/1\"), nor \"random\"");
      w.fixed_file = file;
      w.url = g.string("url", "http://server" + path);
    }
    w.popularity = read_popularity(g, fs, w.fixed_file >= 0);
    // "GET <path> HTTP/1.1\r\nHost: <host>\r\n\r\n" as wrk writes it.
    w.request_bytes = static_cast<std::uint32_t>(g.integer("request_bytes", 64, 16, 1 << 20));
    w.on_server_host = g.choice("host", "remote", {"remote", "server"}) == "server";
    w.network = read_network_path(g, w);
    w.rate = g.number("rate", 0, 0, 1e9);
    // Open loop: one request each 1/rate s, a span like any other.
    if (w.rate > 0 && w.rate < 1 / limits::kMaxSpanSeconds)
      g.fail("rate", fmt::format("must be 0 (closed loop) or from {:g} to 1e9 requests a second (got {:g})",
                                 1 / limits::kMaxSpanSeconds, w.rate));
    w.poisson = g.choice("arrival", "constant", {"constant", "poisson"}) == "poisson";
    if (w.poisson && w.rate == 0) g.fail("arrival", "needs a rate (an open-loop load)");
    if (const toml::node* n = g.value("placement")) {
      // Written by `clerk realrun`: where a real run's connections landed.
      const toml::array* arr = n->as_array();
      if (!arr || arr->empty()) g.fail("placement", "must be a list of connection counts, one per worker");
      std::uint64_t sum = 0;
      for (const toml::node& e : *arr) {
        if (!e.is_integer() || e.value<std::int64_t>().value() < 0 || e.value<std::int64_t>().value() > w.connections)
          g.fail("placement", "entries must be whole numbers from 0 to connections (" + std::to_string(w.connections) + ")");
        w.placement.push_back(static_cast<std::uint32_t>(e.value<std::int64_t>().value()));
        sum += w.placement.back();
      }
      if (sum == 0) g.fail("placement", "places no connection");
      if (w.placement.size() != sc.nginx.worker_processes)
        g.fail("placement", "has " + std::to_string(w.placement.size()) + " entries, but worker_processes = " +
                                std::to_string(sc.nginx.worker_processes));
    }
    g.done();
    sc.clients.push_back(w);
  }
  clients.done(names);
}

void read_expect(Section& root, const LayeredToml& doc, Scenario& sc) {
  // relative_to: a scenario file, relative to the file that names it; not
  // the scenario being read (its own file, by any path or link): a figure
  // relative to its own is 1 whatever the run does, so the claim could never
  // fail (probe 5: it always held).
  const std::string self = sc.file;
  sc.expect = read_expectations(root, doc, [&self](const std::string& s, const std::string& file, int line) {
    const std::filesystem::path target = std::filesystem::path(file).parent_path() / s;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(target, ec))
      throw ConfigError(file, line, "expect.relative_to", "no scenario file '" + s + "'");
    if (std::filesystem::equivalent(target, self, ec))
      throw ConfigError(file, line, "expect.relative_to",
                        "'" + s + "' is this scenario itself, so the ratio is 1 whatever the run does: name another "
                        "scenario");
    return target.string();
  });
}

// The data set must fit its disk (dataset_fit.h).
void check_dataset_fits(Section& root, const Scenario& sc) {
  const std::string misfit = dataset_misfit(sc);
  if (misfit.empty()) return;
  Section dataset = root.sub("dataset");
  dataset.fail("files", misfit);
}
// warmup = "settled" (the default) or a time ("300s"; "0s": a cold start),
// and warmup_max, the cap of a settled warm-up (warmup.h; a fixed one runs as
// long as it says, so that `--set warmup=0s` works on any scenario).
void read_warmup(Section& root, WarmupSpec& w) {
  if (const toml::node* n = root.value("warmup")) {
    if (n->is_string() && n->value<std::string>().value() == "settled") {
      w.settled = true;
    } else {
      double v = 0;
      if (!(n->is_string() && parse_duration(n->value<std::string>().value(), v)) && !n->is_number())
        root.fail("warmup", "must be \"settled\" or a time, like \"300s\" (\"0s\": a cold start)");
      w.settled = false;
      w.fixed_s = root.duration("warmup", 0, 0, false, limits::kMaxRunSeconds);
    }
  }
  w.max_s = root.duration("warmup_max", w.max_s, 0, false, limits::kMaxRunSeconds);
}

// Every key of every table against the documented keys (key_docs.cpp),
// before any value is read: an unknown key is reported before a missing or
// wrong one, with the nearest documented key or the table's list.
[[noreturn]] void unknown_key(const LayeredToml& doc, const std::string& path, const std::string& key,
                              const std::vector<std::string>& known, const std::string& pattern) {
  const std::string dotted = path.empty() ? key : path + "." + key;
  const toml::node* n = doc.locate(dotted);
  if (!n) n = doc.locate(path);
  std::string best;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  std::vector<std::string> valid;
  for (const std::string& k : known) {
    if (is_retired_key(pattern, k)) continue;
    valid.push_back(k);
    const std::size_t d = edit_distance(key, k);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  std::string message = "unknown key";
  if (!best.empty() && best_d <= std::max<std::size_t>(2, key.size() / 3)) message += " (did you mean '" + best + "'?)";
  else message += valid_keys_text(table_name(path), valid);
  throw ConfigError(doc.file_of(n), LayeredToml::line_of(n), dotted, message);
}

// A connection NGINX refuses (worker_connections exhausted) is closed, and
// wrk reconnects at once (reconnect_socket): the cycle lasts the client's
// connect() (cpu.client_connect) plus four one-way delays. A LAN client with
// both zero repeats it without simulated time passing: the run never ends.
// A positive but tiny cycle ("1ns", no connect cost) ends, slowly: issue
// 19 measured agreement/hits with path random, no preload,
// worker_connections 3 and one_way_latency 1ns at 37.8 million refusals
// and 157 s of wall time for 0.01 s simulated. No floor is applied: on
// loopback the handshake runs in the client's connect() itself
// (tcp_v4_connect's SYN is answered in the softirq of the same call), so a
// real round's cost is CPU the profile gives as cpu.client_connect and
// cpu.accept (measured 29 us to 35.83 us and 18.62 us in the committed
// profiles), per machine; a profile with them at 0 says connections are
// free, and a universal floor would be a number no source gives. Such a
// run is bounded by its duration, as a long duration is.
void check_refusal_cycle(Section& root, const Scenario& sc) {
  if (!sc.nginx.worker_connections || sc.hardware.one_way_latency_s > 0 || sc.hardware.costs.client_connect > 0) return;
  for (const WrkGroupSpec& g : sc.clients) {
    if (g.on_server_host || g.network.internet) continue;
    root.sub("network").fail("one_way_latency",
                             "0 with cpu.client_connect 0 and worker_connections set: a refused connection is retried "
                             "by wrk at once, in no simulated time, for ever; give one_way_latency (ping's RTT / 2) or "
                             "cpu.client_connect (wrk's socket() + connect()) a positive value");
  }
}

void check_known_keys(const LayeredToml& doc, const std::string& path, const std::string& pattern) {
  const std::vector<std::string> known = documented_keys(pattern);
  const bool any_name = std::find(known.begin(), known.end(), "NAME") != known.end();
  for (const std::string& k : doc.children(path)) {
    const std::string child = path.empty() ? k : path + "." + k;
    std::string child_pattern;
    if (any_name) child_pattern = pattern == "disks" ? "disk" : pattern + ".NAME";  // [disks.NAME] has [disk]'s keys
    else if (std::find(known.begin(), known.end(), k) != known.end()) child_pattern = pattern.empty() ? k : pattern + "." + k;
    else unknown_key(doc, path, k, known, pattern);
    const toml::node* n = doc.find(child);
    if (is_documented_table(child_pattern) && (!n || n->is_table())) check_known_keys(doc, child, child_pattern);
  }
}

// A text that reports and terminals show as it is: no control character (an
// escape sequence would rewrite the terminal, a carriage return or a newline
// forge a report's lines), but the line breaks and tabs of a description.
std::string shown_text(Section& s, const std::string& key, const std::string& fallback, bool multiline) {
  const std::string text = s.string(key, fallback);
  if (!s.has(key)) return text;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 || c == 0x7f) && !(multiline && (c == '\n' || c == '\t')))
      s.fail(key, fmt::format("holds a control character (0x{:02x}, at {}): it is shown in reports and terminals as is",
                              c, i + 1));
  }
  return text;
}

Scenario read_scenario(const LayeredToml& doc, const std::string& path, std::vector<KeyUse>* uses) {
  if (!uses) check_known_keys(doc, "", "");
  Scenario sc;
  sc.file = path;
  Section root(doc, "", "", uses);
  sc.name = shown_text(root, "name", path, false);
  sc.description = shown_text(root, "description", "", true);
  sc.seed = static_cast<std::uint64_t>(root.integer("seed", 1, 0, kMaxInt));
  sc.duration_s = root.duration("duration", 10, limits::kMinRunSeconds, false, limits::kMaxRunSeconds);
  read_warmup(root, sc.warmup);
  read_hardware(root, doc, sc);
  read_nginx(root, doc, sc);
  read_dataset(root, sc);
  check_dataset_fits(root, sc);
  if (const toml::node* p = root.value("preload")) {
    const toml::array* arr = p->as_array();
    if (!arr) root.fail("preload", "must be a list of paths");
    if (sc.preload_fraction == 0) sc.preload_at = root.origin("preload");
    for (const toml::node& e : *arr) {
      if (!e.is_string() || resolve_path(sc.filesystem.tree, e.value<std::string>().value()) < 0)
        root.fail("preload", "entries must be files of the dataset, like \"/1/1/1\"");
      sc.preload.push_back(e.value<std::string>().value());
    }
  }
  read_clients(root, doc, sc, sc.filesystem, uses == nullptr);
  check_refusal_cycle(root, sc);
  read_expect(root, doc, sc);
  root.done();
  return sc;
}

}  // namespace

void check_expect_bound(double v, const std::string& file, int line, const std::string& key) {
  if (std::isnan(v)) throw ConfigError(file, line, key, "must be a number, not nan");
  if (std::isinf(v)) throw ConfigError(file, line, key, "must be finite (leave the key out for no bound)");
}

std::vector<Expectation> read_expectations(Section& root, const LayeredToml& doc, const RelativeTo& relative_to,
                                          bool validated) {
  std::vector<Expectation> out;
  const toml::node* n = root.value("expect");
  if (!n) return out;
  const toml::array* arr = n->as_array();
  if (!arr) root.fail("expect", "must be a list of tables: [[expect]]");
  std::set<std::string> known = {"metric", "min", "max", "note", "relative_to"};
  if (validated) known.insert({"documented", "known_miss"});
  const Section entries = root.list_of_tables("expect");
  for (const char* k : {"metric", "note", "known_miss", "relative_to"}) entries.declare(k, KeyType::kString, "any text");
  for (const char* k : {"min", "max", "documented"}) entries.declare(k, KeyType::kNumber, "any number");
  for (const toml::node& item : *arr) {
    const toml::table* t = item.as_table();
    const std::string file = doc.file_of(&item);
    if (!t) throw ConfigError(file, LayeredToml::line_of(&item), root.dotted("expect"), "each entry must be a table");
    Expectation e;
    e.file = file;
    e.line = LayeredToml::line_of(&item);
    for (auto&& [k, v] : *t) {
      const std::string key(k.str());
      const int line = LayeredToml::line_of(&v);
      if (!known.count(key)) {
        std::string hint;
        for (const auto& c : known)
          if (edit_distance(key, c) <= 2) hint = " (did you mean '" + c + "'?)";
        if (key == "known_miss") hint = " here: a lesson's claims must hold (no known_miss)";
        if (key == "documented")
          hint = " here: a lesson's claim is its range (min, max); documented is clerk validate's published figure";
        throw ConfigError(file, line, root.dotted("expect") + "." + key, "unknown key" + hint);
      }
      if (key == "metric" || key == "note" || key == "known_miss" || key == "relative_to") {
        if (!v.is_string()) throw ConfigError(file, line, root.dotted("expect") + "." + key, "must be a string");
        const std::string s = v.value<std::string>().value();
        if (key == "relative_to") {
          e.relative_to = relative_to(s, file, line);
        } else {
          (key == "metric" ? e.metric : key == "note" ? e.note : e.known_miss) = s;
        }
      } else {
        if (!v.is_number()) throw ConfigError(file, line, root.dotted("expect") + "." + key, "must be a number");
        const double d = v.value<double>().value();
        check_expect_bound(d, file, line, root.dotted("expect") + "." + key);
        (key == "min" ? e.min : key == "max" ? e.max : e.documented) = d;
      }
    }
    if (e.metric.empty()) throw ConfigError(file, e.line, root.dotted("expect") + ".metric", "is required");
    if (std::isinf(e.min) && std::isinf(e.max)) throw ConfigError(file, e.line, root.dotted("expect"), "needs min, max or both");
    if (e.min > e.max) throw ConfigError(file, e.line, root.dotted("expect") + ".min", "is above max");
    out.push_back(e);
  }
  return out;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides, const std::string& hardware) {
  LayeredToml doc(path, overrides, hardware);
  Scenario sc = read_scenario(doc, path, nullptr);
  sc.files = doc.files();
  for (const WrkGroupSpec& g : sc.clients)  // the access logs replayed: read when the run is built
    if (!g.trace.file.empty() && std::find(sc.files.begin(), sc.files.end(), g.trace.file) == sc.files.end())
      sc.files.push_back(g.trace.file);
  return sc;
}

Scenario load_scenario_recording(const std::string& text, const std::string& name, std::vector<KeyUse>& uses) {
  LayeredToml doc(LayeredToml::FromText{}, text, name);
  return read_scenario(doc, name, &uses);
}

}  // namespace models
