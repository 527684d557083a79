// run_real: the steps of a real run, in order (see real_run.h). Every
// resource is an RAII object declared in the order it is made, so an
// exception at any step stops the processes, then removes the cgroup, then
// the run directory.
#include "testbed/realrun/real_run.h"

#include "common/proc_stat.h"

#include <fcntl.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <thread>

#include "models/clients/popularity.h"
#include "models/scenario/stream_ids.h"
#include "models/scenario/world.h"
#include "sim/random.h"
#include "common/bad_input.h"
#include "common/child_process.h"
#include "common/output_file.h"
#include "common/proc_files.h"
#include "common/stale_state.h"
#include "common/cache_cgroup.h"
#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/data_set.h"
#include "testbed/realrun/emulated_disk.h"
#include "testbed/realrun/loopback_tcp_check.h"
#include "testbed/realrun/nginx_conf.h"
#include "testbed/realrun/placement.h"
#include "testbed/realrun/proc_sampler.h"
#include "testbed/realrun/server_process.h"
#include "testbed/realrun/trace_schedule.h"
#include "testbed/realrun/wrk_process.h"
#include "testbed/realrun/thread_waits.h"
#include "testbed/realrun/wrk_script.h"

namespace testbed {
namespace {

using namespace realrun;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// This thread's CPU time: what the /proc sampling costs.
double thread_cpu_s() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::uint64_t steady_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

// The scratch directory: made here (refusing a non-empty one, which we would
// then delete), removed at the end unless kept.
// The data folder as the run uses it: absolute, normalized.
// An empty name, or a relative one with no working folder, is bad input.
std::string absolute_data_dir(const std::string& data_dir) {
  if (data_dir.empty()) throw common::BadInput("the data folder (--data) is empty: name a folder");
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(data_dir, ec);
  if (ec) throw common::BadInput(fmt::format("the data folder \"{}\" (--data): {}", realrun::comment_text(data_dir), ec.message()));
  return absolute.lexically_normal().string();
}

class RunDir {
 public:
  RunDir(const std::string& wanted, bool keep) : keep_(keep) {
    namespace fs = std::filesystem;
    if (wanted.empty()) {
      // Named after this process, so that a later run can tell it stale
      // once this one is gone (remove_stale_real_runs).
      std::string tmpl = "/tmp/" + common::own_state_name("clerk-realrun") + "-XXXXXX";
      if (!::mkdtemp(tmpl.data())) throw RealRunError(fmt::format("mkdtemp {}: {}", tmpl, std::strerror(errno)));
      path_ = tmpl;
      return;
    }
    std::error_code ec;
    if (fs::exists(wanted, ec) && !fs::is_empty(wanted, ec))
      throw RealRunError(fmt::format("run directory {} is not empty (it is removed after the run): give a new one",
                                     wanted));
    fs::create_directories(wanted, ec);
    if (ec) throw RealRunError(fmt::format("cannot create run directory {}: {}", wanted, ec.message()));
    path_ = fs::absolute(wanted).string();
  }
  ~RunDir() {
    std::error_code ec;
    if (!keep_) std::filesystem::remove_all(path_, ec);
  }
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool keep_;
};

// One run at a time: the registry's cgroup slot and stop flag are global.
std::atomic<bool> g_running{false};
struct RunningFlag {
  RunningFlag() {
    if (g_running.exchange(true)) throw RealRunError("another real run is in progress in this process");
  }
  ~RunningFlag() { g_running.store(false); }
  RunningFlag(const RunningFlag&) = delete;
  RunningFlag& operator=(const RunningFlag&) = delete;
};

void write_file(const std::string& path, const std::string& text) {
  try {
    common::write_file_atomically(path, text);
  } catch (const common::OutputError& e) {
    throw RealRunError(e.what());
  }
}

void require_executable(const std::string& path, const char* what, const char* fix) {
  if (::access(path.c_str(), X_OK) != 0)
    throw RealRunError(fmt::format("{} not found or not executable at {}: {}", what, path, fix));
}

// A file name from a group name.
std::string safe_name(const std::string& s) {
  std::string out;
  for (char ch : s) out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return out;
}

// Reads the preload files (charging their pages to the cgroup) and stats the
// metadata, in a child that joined the cgroup. Only async-signal-safe calls:
// the strings are built before fork.
struct PreloadJob {
  std::vector<std::string> read;
  std::vector<std::string> stat;
  std::vector<char> buffer = std::vector<char>(1 << 20);
};

int preload_body(void* arg) {
  auto* job = static_cast<PreloadJob*>(arg);
  int failures = 0;
  for (const auto& p : job->stat) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) ++failures;
  }
  for (const auto& p : job->read) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      ++failures;
      continue;
    }
    while (::read(fd, job->buffer.data(), job->buffer.size()) > 0) {
    }
    ::close(fd);
  }
  return failures == 0 ? 0 : 1;
}

// sync, then drop the page cache, dentries and inodes: pages left over
// (from making the set, or a previous run) would be charged to whichever
// cgroup first read them, not to this run's.
bool drop_caches() {
  ::sync();
  const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, "3\n", 2) == 2;
  ::close(fd);
  return ok;
}

void progress(const RealRunOptions& o, const std::string& line) {
  if (o.verbose) fmt::print(stderr, "realrun: {}\n", line);
}

// The group's popularity for its script: the simulation's ranking (the same
// stream and sizes), written one file id a line.
void set_popularity(WrkScriptParams& params, const models::PopularitySpec& p, const DataSetSpec& spec,
                    std::uint64_t seed, const std::string& rank_path) {
  if (p.kind == models::PopularityKind::kUniform) return;
  params.popularity = p.kind == models::PopularityKind::kZipf ? "zipf" : "hot";
  params.zipf_exponent = p.zipf_exponent;
  params.hot_share = p.hot_share;
  const std::vector<std::uint32_t> ranking =
      models::popularity_ranking(spec.sizes, p.sizes, sim::RandomStreams(seed).stream(models::kStreamPopularity));
  params.hot_count = models::hot_count(static_cast<std::uint32_t>(ranking.size()), p.hot_files);
  std::string text;
  text.reserve(ranking.size() * 8);
  for (const std::uint32_t f : ranking) text += std::to_string(f) + "\n";
  write_file(rank_path, text);
  params.rank_file = rank_path;
}

}  // namespace

std::string nginx_refusal(const models::Scenario& sc) {
  // What NGINX never had: clerk-serve runs it (aio_modes.h: nginx_refusal).
  if (sc.nginx.aio->nginx_refusal)
    return fmt::format("nginx.aio = \"{}\": {}; run it with --server clerk-serve", sc.nginx.aio->name,
                       sc.nginx.aio->nginx_refusal);
  if (sc.nginx.aio_nowait)
    return "nginx.aio_nowait: NGINX never had the RWF_NOWAIT probe (clerk-serve --aio nowait has it); run it with "
           "--server clerk-serve";
  return "";
}

std::string nginx_folder_refusal(const RealRunOptions& o) {
  if (o.server != "nginx") return {};
  namespace fs = std::filesystem;
  // --disk emulated serves clerk-disk's mount in the run folder (run_dir/data).
  std::error_code ec;
  if (o.disk != "emulated") {
    if (o.data_dir.empty()) return "the data folder (--data) is empty: name a folder";
    const fs::path absolute = fs::absolute(o.data_dir, ec);  // fails with no working folder
    if (ec) return fmt::format("the data folder \"{}\" (--data): {}", realrun::comment_text(o.data_dir), ec.message());
    const std::string data_dir = absolute.lexically_normal().string();
    if (const std::string why = realrun::nginx_path_problem(data_dir, true); !why.empty())
      return fmt::format("the data folder \"{}\" (--data) {}", realrun::comment_text(data_dir), why);
  }
  if (!o.run_dir.empty()) {
    const fs::path absolute = fs::absolute(o.run_dir, ec);
    if (ec) return fmt::format("the run folder \"{}\": {}", realrun::comment_text(o.run_dir), ec.message());
    const std::string run_dir = absolute.string();
    // With --disk emulated the run folder's data/ is root's value too.
    if (const std::string why = realrun::nginx_path_problem(run_dir, o.disk == "emulated"); !why.empty())
      return fmt::format("the run folder \"{}\" {}", realrun::comment_text(run_dir), why);
  }
  return {};
}

std::string real_run_refusal(const models::Scenario& sc) {
  if (sc.nginx.freebsd) return "nginx.os = \"freebsd\" cannot run for real here: this testbed is Linux";
  if (sc.nginx.aio->realrun_refusal)
    return fmt::format("nginx.aio = \"{}\" cannot run for real here: {}", sc.nginx.aio->name,
                       sc.nginx.aio->realrun_refusal);
  return {};
}

std::string softirq_note(const RealRunResult& r) {
  if (!r.softirqs_read) return "softirqs: /proc/softirqs could not be read";
  std::uint64_t requests = 0;
  for (const RealGroupResult& g : r.groups) requests += g.requests;
  const double per = requests > 0 ? 1.0 / static_cast<double>(requests) : 0.0;
  return fmt::format("softirqs (the machine's, /proc/softirqs): {:.1f} HRTIMER and {:.1f} NET_RX a request "
                     "(TCP's pacing and compressed-ACK timers are soft hrtimers); irq and softirq time {:.1f}% of all CPUs",
                     static_cast<double>(r.hrtimer_softirqs) * per, static_cast<double>(r.net_rx_softirqs) * per,
                     100 * r.machine_irq);
}

namespace {

void validate(const models::Scenario& sc, const RealRunOptions& o) {
  if (o.server != "nginx" && o.server != "clerk-serve")
    throw RealRunError(fmt::format("unknown server '{}': nginx or clerk-serve", o.server));
  if (o.server == "nginx") {
    if (const std::string why = nginx_refusal(sc); !why.empty()) throw RealRunError(why);
    require_executable(o.nginx_binary, "nginx", "apt-get install nginx-light (scripts/setup does)");
  }
  else
    require_executable(o.serve_binary, "clerk-serve", "build the clerk-serve target and pass its path");
  require_executable(o.wrk_binary, "wrk", "apt-get install wrk (scripts/setup does)");
  for (const auto& g : sc.clients)
    if (g.trace.enabled()) require_executable(o.replay_binary, "clerk-replay", "build the clerk-replay target");
  if (sc.clients.empty()) throw RealRunError("the scenario has no client groups");
  if (const std::string why = real_run_refusal(sc); !why.empty()) throw RealRunError(why);
  for (const auto& g : sc.clients) {
    if (g.threads == 0 || g.connections < g.threads)
      throw RealRunError(fmt::format("client group {}: wrk needs connections ({}) >= threads ({}) >= 1", g.name,
                                     g.connections, g.threads));
    if (g.rate > 0)
      throw RealRunError(fmt::format("client group {} is open-loop (rate): wrk 4.1 has no --rate; use wrk2", g.name));
  }
  if (sc.nginx.worker_processes == 0) throw RealRunError("nginx.worker_processes must be at least 1");
  if (o.disk != "real" && o.disk != "emulated")
    throw RealRunError(fmt::format("unknown disk '{}': real or emulated", o.disk));
  if (o.disk == "emulated") {
    require_executable(o.disk_binary, "clerk-disk", "build the clerk-disk target (needs libfuse3-dev) or pass its path");
    if (::access("/dev/fuse", R_OK | W_OK) != 0)
      throw RealRunError("--disk emulated needs /dev/fuse (modprobe fuse; in a container, pass the device)");
    if (o.scenario_file.empty()) throw RealRunError("--disk emulated needs the scenario's file for clerk-disk");
  }
}

// A trace group's load: clerk-replay sends the log's lines at their times
// (trace_schedule.h), over the connections wrk would open.
WrkLaunch replay_launch(const models::Scenario& sc, std::size_t g, const RealRunOptions& o, double duration,
                        const std::string& dir) {
  const auto& group = sc.clients[g];
  const std::string base = fmt::format("{}/replay-{}-{}", dir, g, safe_name(group.name));
  WrkLaunch l;
  l.scheduled = write_trace_schedule(sc, g, duration, base + ".schedule");
  l.output = base + ".out";
  // The exact duration the schedule is written for and the model's exact
  // timeout (clerk-replay takes fractions of a second; wrk would not).
  l.argv = {o.replay_binary, "--port", std::to_string(o.port), "--connections", std::to_string(connections_open(group)),
            "--duration", fmt::format("{}", duration), "--timeout", fmt::format("{}", group.timeout_s),
            "--schedule", base + ".schedule"};
  return l;
}

// run_real's steps; a child that cannot be started throws common::ProcessError.
RealRunResult run_real_steps(const models::Scenario& scenario, const RealRunOptions& o) {
  // Before anything is made or started.
  if (const std::string why = nginx_folder_refusal(o); !why.empty()) throw RealRunError(why);
  RunningFlag running;
  clear_stop_request();
  validate(scenario, o);
  // A trace group's log planned as the simulation plans it: the data set
  // holds the log's paths (models/scenario/world.h).
  // Everything drawn from the seed (the data set's sizes, a trace's
  // sampled lines, wrk's scripts and the popularity ranking) is drawn from
  // the simulated run's, so that both sides see the same draws.
  models::Scenario seeded = scenario;
  seeded.seed = o.simulation_seed.value_or(scenario.seed);
  const models::Scenario sc = models::with_traces(seeded, sim::RandomStreams(seeded.seed));
  const double duration = o.duration_s > 0 ? o.duration_s : sc.duration_s;
  const std::uint64_t cache_bytes = o.cache_limit_bytes > 0 ? o.cache_limit_bytes : sc.hardware.page_cache_bytes;
  const std::uint32_t workers = sc.nginx.worker_processes;
  RealRunResult result;
  auto& notes = result.notes;
  common::SubreaperScope reaper;

  RunDir run_dir(o.run_dir, o.verbose);
  const std::string& dir = run_dir.path();
  if (o.verbose) notes.push_back(fmt::format("run directory kept: {}", dir));
  if (!port_free(o.port))
    throw RealRunError(fmt::format("port 127.0.0.1:{} is busy: choose another with --port", o.port));

  // 1. The data set: written under data_dir, or clerk-disk's mount of the
  // scenario's disk in the run folder (emulated_disk.h: in clerk's cgroup,
  // not the server's, and why).
  namespace fs = std::filesystem;
  const bool emulated = o.disk == "emulated";
  const std::string data_dir = emulated ? dir + "/data" : absolute_data_dir(o.data_dir);
  const DataSetSpec spec = data_set_spec(sc);
  progress(o, fmt::format("data set: {} files, {} bytes in {}", spec.files(), spec.total_bytes(), data_dir));
  std::optional<EmulatedDisk> emulated_disk;
  if (emulated) {
    // The disk's draws (the data set's sizes, the drives' streams) from
    // this run's seed, as the simulated side's.
    std::vector<std::string> overrides = o.overrides;
    overrides.push_back(fmt::format("seed={}", sc.seed));
    // clerk-disk's view of the page cache (testbed/disk/cache_pressure.h),
    // whose reclaim evicts its metadata blocks, is the cache this run gives.
    if (o.cache_limit_bytes > 0) overrides.push_back(fmt::format("memory.page_cache={}", o.cache_limit_bytes));
    emulated_disk.emplace(EmulatedDiskLaunch{o.disk_binary, o.scenario_file, overrides, data_dir,
                                             dir + "/clerk-disk.log"});
    notes.push_back("data set: clerk-disk's emulated disk (the scenario's disk model in real time), mounted at " +
                    data_dir + " for this run: a fresh mount, nothing cached");
  } else {
    notes.push_back(ensure_data_set(data_dir, spec).note);
  }
  PreloadJob preload;
  for (const auto& p : sc.preload) {
    const std::int64_t f = models::resolve_path(spec.tree, p);
    if (f < 0) throw RealRunError(fmt::format("preload path {} names no file of the data set", p));
    preload.read.push_back(data_dir + p);
  }
  const auto first_files = static_cast<std::uint64_t>(std::floor(sc.preload_fraction * static_cast<double>(spec.files())));
  for (std::uint64_t f = 0; f < first_files; ++f) preload.read.push_back(data_dir + file_path(spec.tree, f));

  // 2. The server's configuration, checked before anything is started.
  ServerLaunch launch;
  launch.workers = workers;
  launch.port = o.port;
  if (o.server == "nginx") {
    const std::string conf_path = dir + "/nginx.conf";
    const NginxConf conf = nginx_conf(sc, {data_dir, dir, o.port, ::geteuid() == 0});
    write_file(conf_path, conf.text);
    notes.insert(notes.end(), conf.notes.begin(), conf.notes.end());
    check_nginx_config(o.nginx_binary, dir, conf_path);
    result.server_version = nginx_version(o.nginx_binary, dir);
    launch.argv = nginx_argv(o.nginx_binary, dir, conf_path);
    launch.output = dir + "/nginx.out";
    launch.error_log = dir + "/error.log";
  } else {
    launch.argv = serve_argv(sc, {o.serve_binary, data_dir, dir + "/serve.pid", o.port});
    launch.output = dir + "/serve.log";
    const auto serve = serve_notes(sc);
    notes.insert(notes.end(), serve.begin(), serve.end());
    result.server_version = "clerk-serve (" + o.serve_binary + ")";
  }

  // What the server's and wrk's sockets will get (loopback_tcp_check.h).
  result.loopback_tcp = common::this_loopback_tcp();
  progress(o, describe_loopback_tcp(result.loopback_tcp.congestion_control, result.loopback_tcp.lo_qdisc));

  // 3. Page cache confinement, then the preload inside it.
  if (!drop_caches()) notes.push_back("could not drop caches (not root?): pages cached before the run remain");
  common::CacheCgroup cgroup = common::CacheCgroup::create({}, cache_bytes + common::server_memory_allowance(workers),
                                           common::own_state_name("clerk-realrun"));
  result.cache_control = cgroup.describe(cache_bytes);
  if (cgroup.kind() == common::CacheControlKind::kEvictOnly) {
    if (!emulated) evict_data_set(data_dir, spec);  // a fresh mount has nothing cached
    notes.push_back("no memory cgroup (" + cgroup.why_not() +
                    "): the data set was evicted before the run, but the page cache is not confined to " +
                    std::to_string(cache_bytes) + " bytes");
  }
  progress(o, result.cache_control);
  {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    const auto ram = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
    if (pages > 0 && cache_bytes >= ram)
      notes.push_back(fmt::format("the page cache limit ({} bytes) is not below this machine's memory ({} bytes): "
                                  "it confines nothing; pass a smaller cache limit",
                                  cache_bytes, ram));
  }
  if (!preload.read.empty() || !preload.stat.empty()) {
    common::ChildProcess loader =
        common::ChildProcess::run_in_child({{}, cgroup.procs_file(), "", kChildName}, preload_body, &preload);
    const auto& e = loader.wait_for(600);
    if (stop_requested()) throw RealRunError("stopped");
    if (!e || !WIFEXITED(e->status) || WEXITSTATUS(e->status) != 0)
      throw RealRunError("preloading the data set (reading preload files, stat of every file) failed");
    notes.push_back(fmt::format("preloaded {} files", preload.read.size()));
  }
  if (stop_requested()) throw RealRunError("stopped");

  // 4. The server.
  progress(o, "starting " + launch.argv[0]);
  ServerProcess server = ServerProcess::start(launch, cgroup.procs_file());
  const std::vector<pid_t> worker_pids = server.workers();

  // 5. wrk, one per group, all together.
  std::vector<WrkProcess> wrks;
  std::vector<pid_t> wrk_pids;
  const std::uint32_t wrk_seconds = whole_seconds(duration);
  const bool any_wrk = std::any_of(sc.clients.begin(), sc.clients.end(), [](const auto& c) { return !c.trace.enabled(); });
  if (any_wrk && std::abs(wrk_seconds - duration) > 1e-9)
    notes.push_back(fmt::format("wrk runs whole seconds: -d {}s for a duration of {} s", wrk_seconds, duration));
  std::vector<WrkLaunch> launches;
  for (std::size_t g = 0; g < sc.clients.size(); ++g) {
    const auto& group = sc.clients[g];
    if (group.trace.enabled()) {
      launches.push_back(replay_launch(sc, g, o, duration, dir));
      continue;
    }
    WrkScriptParams params{spec.tree, "", sc.seed * 1000003 + g * 1009};
    if (group.fixed_file >= 0) params.fixed_path = file_path(spec.tree, static_cast<std::uint64_t>(group.fixed_file));
    const std::string base = fmt::format("{}/wrk-{}-{}", dir, g, safe_name(group.name));
    if (group.fixed_file < 0) set_popularity(params, group.popularity, spec, sc.seed, base + ".rank");
    write_file(base + ".lua", wrk_script(params));
    WrkLaunch l;
    l.binary = o.wrk_binary;
    l.threads = group.threads;
    l.connections = group.connections;
    l.duration_s = duration;
    l.timeout_s = group.timeout_s;
    l.script = base + ".lua";
    l.url = fmt::format("http://127.0.0.1:{}{}", o.port, params.fixed_path.empty() ? "/" : params.fixed_path);
    l.output = base + ".out";
    launches.push_back(l);
  }
  // The start counters, then every wrk at once.
  const CpuTotals cpu0 = read_cpu_totals();
  const SoftirqCounts softirqs0 = read_softirq_counts();
  const DiskCounters disk0 = read_disk_counters(data_dir);
  std::vector<double> worker_cpu0;
  for (pid_t w : worker_pids) worker_cpu0.push_back(process_cpu_s(w));
  const double master_cpu0 = process_cpu_s(server.master());
  const auto t0 = Clock::now();
  for (std::size_t g = 0; g < launches.size(); ++g) {
    wrks.push_back(WrkProcess::start(sc.clients[g].name, launches[g]));
    wrk_pids.push_back(wrks.back().pid());
  }
  progress(o, fmt::format("{} wrk processes for {} s", wrks.size(), wrk_seconds));

  // 6. Sampling, in this thread (it also reaps wrk: one thread, no locks).
  StateSampler states(worker_pids);
  const auto proc = common::files_under("");
  WaitSampler waits(*proc, worker_pids);
  BlockSampler block(*proc, disk0.found ? data_block_devices(*proc, disk0.name) : std::vector<std::string>{});
  block.sample(steady_ns());
  double sampler_cpu = 0;
  std::vector<std::uint32_t> expected_open;
  for (const auto& g : sc.clients) expected_open.push_back(connections_open(g));
  std::vector<Placement> placements;
  const double checks[2] = {wrk_seconds / 3.0, 2.0 * wrk_seconds / 3.0};
  double max_timeout = 0;
  for (const auto& g : sc.clients) max_timeout = std::max(max_timeout, g.timeout_s);
  const double give_up = wrk_seconds + max_timeout + 30;  // wrk ends at -d; then it waits for nothing
  auto next = Clock::now();
  const auto interval = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.sample_interval_s));
  while (true) {
    bool all_done = true;
    for (auto& w : wrks) all_done = w.child().poll().has_value() && all_done;
    if (all_done) break;
    if (stop_requested()) throw RealRunError("stopped");
    if (!server.running())
      throw RealRunError(fmt::format("the server exited during the run ({}); see {}",
                                     common::describe_status(server.child().exit()->status), launch.output));
    if (emulated_disk)
      if (const std::string why = emulated_disk->failure(); !why.empty()) throw RealRunError(why);
    if (since(t0) > give_up) throw RealRunError(fmt::format("wrk did not finish within {} s", give_up));
    const double cpu_before = thread_cpu_s();
    states.sample();
    waits.sample(steady_ns());
    block.sample(steady_ns());
    sampler_cpu += thread_cpu_s() - cpu_before;
    if (placements.size() < 2 && since(t0) >= checks[placements.size()])
      placements.push_back(measure_complete_placement(o.port, worker_pids, wrk_pids, expected_open));
    next += interval;
    const auto now = Clock::now();
    if (next < now) next = now;  // fell behind (a busy machine): no burst of catch-up samples
    std::this_thread::sleep_until(next);
  }
  // wrk killed by stop_all_real_runs() also ends the loop.
  if (stop_requested()) throw RealRunError("stopped");
  result.wall_s = since(t0);
  block.sample(steady_ns());
  result.drives = block.figures();
  const CpuTotals cpu1 = read_cpu_totals();
  const SoftirqCounts softirqs1 = read_softirq_counts();
  const DiskCounters disk1 = read_disk_counters(data_dir);

  // Results, before the server is stopped (its processes' CPU times).
  double server_cpu = process_cpu_s(server.master()) - master_cpu0;
  for (std::size_t i = 0; i < worker_pids.size(); ++i) {
    RealWorker w;
    w.pid = worker_pids[i];
    const auto s = states.shares(i);
    w.running = s.running;
    w.sleeping = s.sleeping;
    w.disk_wait = s.disk_wait;
    w.samples = s.samples;
    w.cpu_s = process_cpu_s(worker_pids[i]) - worker_cpu0[i];
    server_cpu += w.cpu_s;
    result.workers.push_back(w);
  }
  result.server_cpu_s = server_cpu;
  for (WaitSummary& w : waits.summaries())
    if (w.threads > 0) result.waits.push_back(std::move(w));
  result.sampler_cpu_share = result.wall_s > 0 ? sampler_cpu / result.wall_s : 0;
  for (std::size_t g = 0; g < wrks.size(); ++g) {
    RealGroupResult r = wrks[g].result(connections_open(sc.clients[g]));
    if (!placements.empty()) r.placement = placements[0].per_group[g];
    if (placements.size() > 1) r.placement_late = placements[1].per_group[g];
    result.clients_cpu_s += r.cpu_s;
    if (o.verbose) fmt::print(stderr, "realrun: wrk {}:\n{}", r.name, r.wrk_output);
    if (sc.clients[g].trace.enabled() && r.requests_waiting + r.requests_in_flight > 0)
      notes.push_back(fmt::format("trace group {}: of {} requests due, {} were still queued and {} under way at the end "
                                  "(not counted, as wrk counts no response after -d)",
                                  r.name, r.requests_due, r.requests_waiting, r.requests_in_flight));
    result.groups.push_back(std::move(r));
  }
  if (placements.empty()) notes.push_back("the run ended before the placement could be measured");
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (placed_per_group(placements[i]) != expected_open)
      notes.push_back(fmt::format("placement at {}/3 of the run: not every connection was established at any of "
                                  "20 looks (reconnections); {} seen but not matched to a worker and a group",
                                  i + 1, placements[i].unmatched));
  if (placements.size() == 2 && placements[0].per_group != placements[1].per_group)
    notes.push_back("the placement at 2/3 of the run differs from the one at 1/3 (reported); see placement_late");
  const std::uint64_t dt = cpu1.total - cpu0.total;
  if (dt > 0) {
    result.machine_busy = static_cast<double>(cpu1.busy - cpu0.busy) / static_cast<double>(dt);
    result.machine_iowait = static_cast<double>(cpu1.iowait - cpu0.iowait) / static_cast<double>(dt);
    result.machine_irq = static_cast<double>(cpu1.irq - cpu0.irq) / static_cast<double>(dt);
  }
  result.softirqs_read = !softirqs0.hrtimer.empty() && !softirqs1.hrtimer.empty();
  result.hrtimer_softirqs = common::softirqs_between(softirqs0.hrtimer, softirqs1.hrtimer);
  result.net_rx_softirqs = common::softirqs_between(softirqs0.net_rx, softirqs1.net_rx);
  notes.push_back(softirq_note(result));
  if (disk0.found && disk1.found) {
    result.disk_device = disk1.name;
    result.disk_reads = disk1.reads - disk0.reads;
    result.disk_read_bytes = (disk1.sectors_read - disk0.sectors_read) * 512;
  } else if (emulated) {
    notes.push_back("the emulated disk has no block device: no disk counters (the simulated side has its drives)");
  } else {
    notes.push_back("the data set's block device is not in /proc/diskstats: no disk counters");
  }
  result.cache_peak_bytes = cgroup.peak_usage();

  // 7. Stop everything (the destructors would too; this way failures are noted).
  server.stop(5);
  if (emulated_disk) {
    const EmulatedDisk::End end = emulated_disk->stop();
    result.disk_own_latency = end.summary.front();
    result.disk_summary = end.summary;
    notes.insert(notes.end(), end.summary.begin(), end.summary.end());
    notes.insert(notes.end(), end.problems.begin(), end.problems.end());
  }
  if (!cgroup.remove()) notes.push_back("could not remove the cgroup " + cgroup.path());
  progress(o, fmt::format("done in {:.1f} s", result.wall_s));
  std::sort(result.workers.begin(), result.workers.end(),
            [](const RealWorker& a, const RealWorker& b) { return a.pid < b.pid; });
  // workers[] and the placements share the order of worker_pids (sorted by common::children_of()).
  return result;
}

}  // namespace

RealRunResult run_real(const models::Scenario& sc, const RealRunOptions& o) {
  // A child that cannot be started (fork, cgroup.procs, its output file) is
  // a failed run like any other, reported after everything is stopped.
  try {
    return run_real_steps(sc, o);
  } catch (const common::ProcessError& e) {
    throw RealRunError(e.what());
  }
}

std::vector<std::string> remove_stale_real_runs() {
  const common::CgroupRoots roots;
  // A dead run's clerk-disk mount first: its folder cannot go while mounted.
  std::vector<std::string> said = realrun::detach_stale_emulated_mounts("/tmp", "clerk-realrun-");
  for (std::string& line : common::remove_stale_state({"clerk-realrun-", {roots.v2, roots.v1}, {"/tmp"}}))
    said.push_back(std::move(line));
  return said;
}

}  // namespace testbed
